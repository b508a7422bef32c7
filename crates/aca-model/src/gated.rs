//! The MLP's gated activation, `SiLU(gate) · up`, over `[rows, gate ‖ up]`: on the CPU (f32 or bf16)
//! one pass, split by rows across the CPU's threads for a prompt (burn's CPU backend takes a
//! single-threaded pass for the sigmoid and two more for the products); elsewhere through burn's ops.

use burn::tensor::Tensor;
use burn::tensor::activation::silu;

use crate::host::{self, rounded};

/// `SiLU(gate) · up` for `gate_up` = `[rows, 2·width]`, the gate's `width` columns before the up's.
/// In bf16 the SiLU and the product are each rounded once, as `transformers`' fused SiLU and its
/// product are.
pub(crate) fn silu_gated(gate_up: Tensor<2>, width: usize) -> Tensor<2> {
    let (device, dtype) = (gate_up.device(), gate_up.dtype());
    let gate_up = if host::on_host(&device, &[dtype]) {
        let [rows, _] = gate_up.dims();
        match host::values_of(gate_up) {
            Err(gate_up) => gate_up,
            Ok(values) => {
                let mut out = vec![0.0f32; rows * width];
                host::each_row(&mut out, width, values.len(), |row, out| {
                    let (gate, up) = values[row * 2 * width..][..2 * width].split_at(width);
                    for ((out, &gate), &up) in out.iter_mut().zip(gate).zip(up) {
                        *out = rounded(rounded(gate / (1.0 + (-gate).exp()), dtype) * up, dtype);
                    }
                });
                return host::tensor(out, [rows, width], &device, dtype);
            }
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
    use burn::tensor::{DType, Device, Distribution, TensorData, Tolerance};

    use super::*;

    #[test]
    fn the_cpu_pass_computes_what_burns_ops_do() {
        let device = Device::flex();
        // A decoding row, a few, and a prompt's worth (shared out among the threads).
        for rows in [1, 5, 64, 800] {
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

    #[test]
    fn in_bf16_the_silu_and_the_product_are_each_rounded_once() {
        let device = Device::flex();
        for rows in [1, 800] {
            let gate_up: Tensor<2> = Tensor::random([rows, 2 * 24], Distribution::Normal(0.0, 4.0), &device);
            let got = silu_gated(gate_up.clone().cast(DType::BF16), 24);
            assert_eq!(got.dtype(), DType::BF16);
            // The reference: SiLU in f32 rounded to bf16, then the product rounded.
            let bf16 = gate_up.cast(DType::BF16).cast(DType::F32);
            let silu = silu(bf16.clone().slice_dim(1, 0..24)).cast(DType::BF16).cast(DType::F32);
            let expected = (silu * bf16.slice_dim(1, 24..48)).cast(DType::BF16);
            got.cast(DType::F32)
                .into_data()
                .assert_approx_eq::<f32>(&expected.cast(DType::F32).into_data(), Tolerance::rel_abs(1.6e-2, 1e-3));
        }
    }
}
