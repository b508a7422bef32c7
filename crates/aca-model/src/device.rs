//! Where the model runs: the CPU (burn's flex backend, always built), or a GPU through wgpu or CUDA
//! (each only in a build with this crate's feature of the same name).

use std::fmt;
use std::str::FromStr;

use burn::tensor::Device;

/// A kind of device the model can run on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DeviceChoice {
    /// The CPU, through burn's flex backend.
    Cpu,
    /// A GPU through wgpu (Vulkan, Metal or DX12; Mesa's llvmpipe also serves as one without a GPU).
    Wgpu,
    /// An NVIDIA GPU through CUDA.
    Cuda,
}

/// The device asked for is not in this build, or the name is not a device.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeviceError {
    #[error(
        "the {device} device is not in this build: build with the `{feature}` feature (`cargo build --release -p aca --features {feature}`)"
    )]
    NotBuilt {
        device: DeviceChoice,
        feature: &'static str,
    },
    #[error("unknown device {0:?}: expected cpu, wgpu or cuda")]
    Unknown(String),
    #[error("the {device} device cannot run: {reason}")]
    Unavailable { device: DeviceChoice, reason: String },
}

impl DeviceChoice {
    pub const ALL: [DeviceChoice; 3] = [DeviceChoice::Cpu, DeviceChoice::Wgpu, DeviceChoice::Cuda];

    /// The device's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            DeviceChoice::Cpu => "cpu",
            DeviceChoice::Wgpu => "wgpu",
            DeviceChoice::Cuda => "cuda",
        }
    }

    /// The cargo feature that builds this device's backend (`None`: always built).
    pub fn feature(self) -> Option<&'static str> {
        match self {
            DeviceChoice::Cpu => None,
            DeviceChoice::Wgpu => Some("wgpu"),
            DeviceChoice::Cuda => Some("cuda"),
        }
    }

    /// Whether this build can run on the device.
    pub fn is_built(self) -> bool {
        match self {
            DeviceChoice::Cpu => true,
            DeviceChoice::Wgpu => cfg!(feature = "wgpu"),
            DeviceChoice::Cuda => cfg!(feature = "cuda"),
        }
    }

    /// Whether the device's memory is the host's RAM (so its free RAM bounds what the model may hold).
    pub fn uses_host_memory(self) -> bool {
        self == DeviceChoice::Cpu
    }

    /// The burn device: the CPU, the default wgpu adapter (the best GPU wgpu finds; override with
    /// `CUBECL_WGPU_DEFAULT_DEVICE`), or the first CUDA GPU.
    pub fn open(self) -> Result<Device, DeviceError> {
        match self {
            DeviceChoice::Cpu => Ok(Device::flex()),
            DeviceChoice::Wgpu => open_wgpu(),
            DeviceChoice::Cuda => open_cuda(),
        }
    }
}

#[cfg(feature = "wgpu")]
fn open_wgpu() -> Result<Device, DeviceError> {
    probe(DeviceChoice::Wgpu, || {
        Device::wgpu(burn::tensor::DeviceKind::DefaultDevice)
    })
}

#[cfg(not(feature = "wgpu"))]
fn open_wgpu() -> Result<Device, DeviceError> {
    Err(DeviceError::NotBuilt {
        device: DeviceChoice::Wgpu,
        feature: "wgpu",
    })
}

#[cfg(feature = "cuda")]
fn open_cuda() -> Result<Device, DeviceError> {
    probe(DeviceChoice::Cuda, || Device::cuda(0))
}

/// Opens a GPU device and runs one tiny computation on it: burn opens devices lazily and panics when
/// there is no adapter or driver, which becomes a typed error here instead of a crash mid-request.
#[cfg(any(feature = "wgpu", feature = "cuda"))]
fn probe(choice: DeviceChoice, open: impl FnOnce() -> Device + std::panic::UnwindSafe) -> Result<Device, DeviceError> {
    use burn::tensor::Tensor;
    let unavailable = |reason: String| DeviceError::Unavailable { device: choice, reason };
    let result = std::panic::catch_unwind(|| {
        let device = open();
        let sum = Tensor::<1>::from_floats([1.0, 2.0], &device).sum().try_into_data();
        (device, sum.map_err(|e| format!("{e:?}")))
    });
    match result {
        Ok((device, Ok(_))) => Ok(device),
        Ok((_, Err(reason))) => Err(unavailable(reason)),
        Err(panic) => {
            let reason = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_string()))
                .unwrap_or_else(|| "the backend panicked while opening the device".to_string());
            Err(unavailable(reason))
        }
    }
}

#[cfg(not(feature = "cuda"))]
fn open_cuda() -> Result<Device, DeviceError> {
    Err(DeviceError::NotBuilt {
        device: DeviceChoice::Cuda,
        feature: "cuda",
    })
}

impl fmt::Display for DeviceChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for DeviceChoice {
    type Err = DeviceError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        DeviceChoice::ALL
            .into_iter()
            .find(|choice| choice.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| DeviceError::Unknown(text.to_string()))
    }
}

/// Runs `work` on one of the CPU thread pool's workers when `device` is the CPU (as it is, when
/// already on one; on a GPU, here). A pass of many products, each shared out among the workers, then
/// hands each product's parts to the other workers directly instead of from a thread outside the
/// pool, which would be put to sleep and woken for every product.
pub(crate) fn on_cpu_workers<R: Send>(device: &Device, work: impl FnOnce() -> R + Send) -> R {
    if *device == Device::flex() && rayon::current_thread_index().is_none() {
        rayon::scope(|_| work())
    } else {
        work()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back_and_unbuilt_devices_name_their_feature() {
        for choice in DeviceChoice::ALL {
            assert_eq!(choice.name().parse::<DeviceChoice>(), Ok(choice));
        }
        assert!(matches!("tpu".parse::<DeviceChoice>(), Err(DeviceError::Unknown(_))));
        assert!(DeviceChoice::Cpu.open().is_ok());
        if !DeviceChoice::Wgpu.is_built() {
            let error = DeviceChoice::Wgpu.open().unwrap_err();
            assert!(error.to_string().contains("--features wgpu"), "{error}");
        }
        if !DeviceChoice::Cuda.is_built() {
            let error = DeviceChoice::Cuda.open().unwrap_err();
            assert!(error.to_string().contains("--features cuda"), "{error}");
        }
    }
}
