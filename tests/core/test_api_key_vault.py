"""The cloud API key: the OS keyring first; where none exists, the encrypted vault.

A desktop without Secret Service could only be told to set an environment
variable before; now the key the person enters is kept in their vault,
encrypted with their passphrase, and the cloud client finds it there.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import keyring
import pytest
from keyring.backends.fail import Keyring as FailKeyring

from core.errors import CloudError, CloudUnauthorized
from core.llm.cloud import CloudClient
from core.llm.endpoints import (
    api_key_location,
    delete_api_key,
    get_api_key,
    set_api_key,
)
from core.store import Store
from training.stub_cloud import StubCloud

URL = "https://cloud.example/v1"


@pytest.fixture
def no_keyring(hermetic: Any) -> Iterator[None]:
    keyring.set_keyring(FailKeyring())
    yield
    keyring.set_keyring(hermetic)


def test_with_a_keyring_the_key_goes_there_and_not_into_the_vault(
    store: Store, hermetic: Any
) -> None:
    assert api_key_location(store) == "keyring"
    store.set_secret(f"cloud-api-key:{URL}", "old copy")
    assert set_api_key(URL + "/", "sk-ring", store) == "keyring"
    assert hermetic.items[("sottovoce", f"cloud-api-key:{URL}")] == "sk-ring"
    assert store.get_secret(f"cloud-api-key:{URL}") is None  # one copy only
    assert get_api_key(URL, store) == "sk-ring"


def test_without_a_keyring_the_key_is_kept_in_the_encrypted_vault(
    store: Store, no_keyring: None, tmp_path: Any
) -> None:
    assert api_key_location(store) == "vault" and api_key_location() == "none"
    assert set_api_key(URL, "sk-in-vault", store) == "vault"
    assert get_api_key(URL, store) == "sk-in-vault"
    assert get_api_key("https://other.example/v1", store) is None
    # Encrypted at rest: the key's bytes are not in the file.
    store.close()
    raw = b"".join(p.read_bytes() for p in tmp_path.glob("vault.db*"))
    assert b"sk-in-vault" not in raw
    reopened = Store.open(tmp_path / "vault.db", "test passphrase")
    try:
        assert get_api_key(URL, reopened) == "sk-in-vault"
        delete_api_key(URL, reopened)
        assert get_api_key(URL, reopened) is None
    finally:
        reopened.close()


def test_without_a_keyring_or_a_vault_the_message_says_what_to_do(no_keyring: None) -> None:
    with pytest.raises(CloudError) as err:
        set_api_key(URL, "sk-x")
    assert "vault" in (err.value.hint or "") and "SOTTOVOCE_CLOUD_API_KEY" not in str(err.value)
    with pytest.raises(CloudUnauthorized) as missing:
        CloudClient(URL, "m")._key()
    assert "Settings" in (missing.value.hint or "")
    assert "SOTTOVOCE_CLOUD_API_KEY" not in (missing.value.hint or "")


def test_the_client_sends_the_key_from_the_vault(store: Store, no_keyring: None) -> None:
    with StubCloud(api_key="sk-from-vault") as stub:
        set_api_key(stub.base_url, "sk-from-vault", store)
        client = CloudClient(stub.base_url, stub.model, vault=store, max_retries=0)
        assert client.list_models() == [stub.model]
    headers = {k.lower(): v for k, v in stub.requests[0]["headers"].items()}
    assert headers["authorization"] == "Bearer sk-from-vault"


def test_the_connection_test_lists_models_and_sends_no_content(store: Store, no_keyring: None) -> None:
    from core.llm.cloud import endpoint_models

    with StubCloud(api_key="sk-from-vault") as stub:
        set_api_key(stub.base_url, "sk-from-vault", store)
        assert endpoint_models(stub.base_url, vault=store) == [stub.model]
        with pytest.raises(CloudUnauthorized):
            endpoint_models(stub.base_url, api_key="sk-wrong")
    assert [r["path"] for r in stub.requests] == ["/v1/models", "/v1/models"]
    assert all(not r.get("body") for r in stub.requests)
