"""presidio-analyzer: its default configuration files (YAML) and its package metadata."""

from PyInstaller.utils.hooks import collect_data_files, copy_metadata

datas = collect_data_files("presidio_analyzer") + copy_metadata("presidio_analyzer")
