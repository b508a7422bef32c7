//! Clipping by the global gradient norm: every gradient of a step scaled by one factor so that the norm
//! of all of them together is at most the limit (burn's own clipping works one parameter at a time).

use burn::module::{Module, ModuleVisitor, Param, ParamId};
use burn::optim::GradientsParams;
use burn::tensor::Tensor;

/// The ids of a module's trainable float parameters, by rank.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrainableIds {
    pub vectors: Vec<ParamId>,
    pub matrices: Vec<ParamId>,
}

impl TrainableIds {
    /// The parameters of `module` that require gradients (LoRA adapters included, frozen bases not).
    pub fn of<M: Module>(module: &M) -> Self {
        let mut ids = Self::default();
        module.visit(&mut ids);
        ids
    }
}

impl ModuleVisitor for TrainableIds {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        if !param.base().is_require_grad() {
            return;
        }
        match D {
            1 => self.vectors.push(param.id),
            2 => self.matrices.push(param.id),
            _ => {}
        }
    }
}

/// The global L2 norm of the gradients in `grads` before clipping; when it exceeds `max_norm`, every
/// gradient is multiplied by `max_norm / norm`.
pub fn clip_global_norm(grads: &mut GradientsParams, ids: &TrainableIds, max_norm: Option<f32>) -> f32 {
    let mut squares = 0.0f64;
    for id in &ids.vectors {
        squares += square_sum::<1>(grads, *id);
    }
    for id in &ids.matrices {
        squares += square_sum::<2>(grads, *id);
    }
    let norm = squares.sqrt() as f32;
    if let Some(max_norm) = max_norm
        && norm > max_norm
    {
        let factor = f64::from(max_norm) / (f64::from(norm) + 1e-6);
        for id in &ids.vectors {
            scale::<1>(grads, *id, factor);
        }
        for id in &ids.matrices {
            scale::<2>(grads, *id, factor);
        }
    }
    norm
}

fn square_sum<const D: usize>(grads: &GradientsParams, id: ParamId) -> f64 {
    grads
        .get::<D>(id)
        .map_or(0.0, |grad| f64::from(grad.square().sum().into_scalar::<f32>()))
}

fn scale<const D: usize>(grads: &mut GradientsParams, id: ParamId, factor: f64) {
    if let Some(grad) = grads.remove::<D>(id) {
        grads.register(id, grad.mul_scalar(factor));
    }
}

#[cfg(test)]
mod tests {
    use burn::tensor::{Device, TensorData};

    use super::*;

    fn grads() -> (GradientsParams, TrainableIds) {
        let device = Device::flex();
        let mut grads = GradientsParams::new();
        let (a, b) = (ParamId::from(1), ParamId::from(2));
        // Norm of everything: sqrt(3² + 4² + 12²) = 13.
        grads.register(
            a,
            Tensor::<1>::from_data(TensorData::new(vec![3.0f32, 4.0], [2]), &device),
        );
        grads.register(
            b,
            Tensor::<2>::from_data(TensorData::new(vec![0.0f32, 12.0], [1, 2]), &device),
        );
        let ids = TrainableIds {
            vectors: vec![a],
            matrices: vec![b],
        };
        (grads, ids)
    }

    fn values<const D: usize>(grads: &GradientsParams, id: u64) -> Vec<f32> {
        grads
            .get::<D>(ParamId::from(id))
            .unwrap()
            .into_data()
            .try_into_vec::<f32>()
            .unwrap()
    }

    #[test]
    fn all_gradients_are_scaled_by_one_factor() {
        let (mut grads, ids) = grads();
        let norm = clip_global_norm(&mut grads, &ids, Some(6.5));
        assert!((norm - 13.0).abs() < 1e-5);
        // Factor 6.5 / 13 = 0.5 for both tensors, not a per-tensor clip (which would leave `a` at norm 5).
        let a = values::<1>(&grads, 1);
        let b = values::<2>(&grads, 2);
        for (got, want) in a.iter().chain(&b).zip([1.5f32, 2.0, 0.0, 6.0]) {
            assert!((got - want).abs() < 1e-5, "{a:?} {b:?}");
        }
    }

    #[test]
    fn gradients_under_the_limit_or_without_one_are_left_alone() {
        for limit in [Some(20.0), None] {
            let (mut grads, ids) = grads();
            assert!((clip_global_norm(&mut grads, &ids, limit) - 13.0).abs() < 1e-5);
            assert_eq!(values::<1>(&grads, 1), vec![3.0, 4.0]);
            assert_eq!(values::<2>(&grads, 2), vec![0.0, 12.0]);
        }
    }
}
