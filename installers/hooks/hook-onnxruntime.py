"""onnxruntime's shared libraries, without the GPU providers unless asked for.

onnxruntime-gpu ships its CUDA and TensorRT execution providers (about 285 MB,
and they need CUDA and cuDNN installed beside them). The default bundle runs
the ONNX models on the CPU; ``SOTTOVOCE_BUNDLE_GPU=1`` keeps the providers.
"""

import os
from pathlib import Path

from PyInstaller.utils.hooks import collect_dynamic_libs

_GPU_ONLY = ("onnxruntime_providers_cuda", "onnxruntime_providers_tensorrt")

binaries = collect_dynamic_libs("onnxruntime")
if os.environ.get("SOTTOVOCE_BUNDLE_GPU", "") != "1":
    binaries = [b for b in binaries if not any(g in Path(b[0]).name for g in _GPU_ONLY)]
