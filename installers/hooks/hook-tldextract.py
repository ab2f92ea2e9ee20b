"""tldextract: the public-suffix snapshot it ships (``.tld_set_snapshot``), used offline."""

from PyInstaller.utils.hooks import collect_data_files

datas = collect_data_files("tldextract", include_py_files=False)
