"""The two models Sottovoce talks to, and the checks around them.

- :class:`~core.llm.local.LocalModel`: any GGUF through llama.cpp, checked
  first (:func:`~core.llm.gguf_file.read_gguf`); the embedded SmolLM2 by default.
- :class:`~core.llm.cloud.CloudClient`: any OpenAI-compatible endpoint. Only the
  egress guard (:mod:`core.egress`) sends through it.
- :class:`~core.llm.demo.DemoCloud`: a loopback OpenAI-compatible server for
  tests, demos and ``--demo-cloud``.

Heavy libraries (llama_cpp, openai) are imported only when a model is used.
"""

from core.llm.base import Cancel, ChatMessage, Messages, Reply, is_cancelled
from core.llm.cloud import CloudClient, CloudStream
from core.llm.endpoints import get_api_key, set_api_key
from core.llm.gguf_file import GGUFError, GGUFInfo, read_gguf
from core.llm.local import LocalModel, ModelTooLarge, embedded_model_path

__all__ = [
    "Cancel",
    "ChatMessage",
    "CloudClient",
    "CloudStream",
    "GGUFError",
    "GGUFInfo",
    "LocalModel",
    "Messages",
    "ModelTooLarge",
    "Reply",
    "embedded_model_path",
    "get_api_key",
    "is_cancelled",
    "read_gguf",
    "set_api_key",
]
