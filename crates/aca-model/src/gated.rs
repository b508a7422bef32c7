//! The MLP's gated activation, `SiLU(gate) · up`, over `[rows, gate ‖ up]`: on the CPU in f32 one pass
//! split by rows across the CPU's threads (burn's CPU backend takes a single-threaded pass for the
//! sigmoid and two more for the products); elsewhere through burn's ops.

use burn::tensor::activation::silu;
use burn::tensor::{DType, Device, Tensor, TensorData};
use rayon::prelude::*;

/// `SiLU(gate) · up` for `gate_up` = `[rows, 2·width]`, the gate's `width` columns before the up's.
pub(crate) fn silu_gated(gate_up: Tensor<2>, width: usize) -> Tensor<2> {
    let device = gate_up.device();
    let gate_up = if device == Device::flex() && gate_up.dtype() == DType::F32 {
        let [rows, _] = gate_up.dims();
        let data = gate_up.into_data();
        match data.as_slice::<f32>() {
            Ok(values) => {
                let mut out = vec![0.0f32; rows * width];
                out.par_chunks_mut(width)
                    .zip(values.par_chunks(2 * width))
                    .for_each(|(out, row)| {
                        let (gate, up) = row.split_at(width);
                        for ((out, &gate), &up) in out.iter_mut().zip(gate).zip(up) {
                            *out = gate / (1.0 + (-gate).exp()) * up;
                        }
                    });
                return Tensor::from_data(TensorData::new(out, [rows, width]), &device);
            }
            Err(_) => Tensor::from_data(data, &device),
        }
    } else {
        gate_up
    };
    let gate = gate_up.clone().slice_dim(1, 0..width);
    let up = gate_up.slice_dim(1, width..2 * width);
    silu(gate) * up
}

#[cfg(test)]
mod tests {
    use burn::tensor::{Distribution, Tolerance};

    use super::*;

    #[test]
    fn the_cpu_pass_computes_what_burns_ops_do() {
        let device = Device::flex();
        for rows in [1, 5, 64] {
            let gate_up: Tensor<2> = Tensor::random([rows, 2 * 24], Distribution::Normal(0.0, 4.0), &device);
            let gate = gate_up.clone().slice_dim(1, 0..24);
            let up = gate_up.clone().slice_dim(1, 24..48);
            let expected = silu(gate) * up;
            let fused = silu_gated(gate_up, 24);
            assert_eq!(fused.dims(), [rows, 24]);
            fused
                .into_data()
                .assert_approx_eq::<f32>(&expected.into_data(), Tolerance::rel_abs(1e-6, 1e-6));
        }
        // Extremes neither overflow nor turn into NaN.
        let extremes = Tensor::<2>::from_data(TensorData::new(vec![-1e4f32, 1e4, 2.0, 3.0], [1, 4]), &device);
        let values = silu_gated(extremes, 2).into_data().try_to_vec::<f32>().unwrap();
        assert_eq!(values[0], -0.0);
        assert_eq!(values[1], 3e4);
    }
}
