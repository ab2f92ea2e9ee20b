"""The window serving other apps: proxied requests wait in the approval view.

The real proxy server runs in the window's process (Privacy > Serve other apps);
an app (the ``openai`` client on a thread) sends a request; the approval view
shows it with the app's name; what the person answers is what happens.
"""

from __future__ import annotations

import http.client
import json
import socket
import threading
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlsplit

import openai
import pytest

from app.proxy_server import serve_in_thread
from core.llm.demo import free_port
from ui.approval import ApprovalDialog
from ui.proxy_control import ProxyControl

from .conftest import HANG_S, FakeCloud, find_dialog, wait_revised

PHONE = "215-555-4078"
TEXT = f"My number is {PHONE}. What are the early signs of dehydration in toddlers?"
APP = "Notes helper"


@pytest.fixture
def served(qtbot: Any, make_engine: Callable[..., Any], lambda_analyzer: Any) -> Iterator[Any]:
    from ui.main_window import MainWindow

    engine = make_engine(
        lambda_analyzer, risk_lambda=1.0, chat_integration="pass_through", proxy_port=free_port()
    )
    w = MainWindow(engine, load_models=False)
    qtbot.addWidget(w)
    control = ProxyControl(w, engine, serve_in_thread)
    control.install(w.privacy_menu)
    w.show()
    control.action.trigger()  # Privacy > Serve other apps
    assert control.server is not None and control.label.isVisible()
    yield control
    control.stop()
    w.close()


class App:
    """An app calling the proxy from its own thread."""

    def __init__(self, control: ProxyControl, timeout: float = HANG_S) -> None:
        token = control.copy_token()
        self.client = openai.OpenAI(
            base_url=control.base_url,
            api_key=token,
            max_retries=0,
            timeout=timeout,
            default_headers={"X-Sottovoce-Client": APP},
        )
        self.answer: str | None = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._ask)
        self.thread.start()

    def _ask(self) -> None:
        try:
            r = self.client.chat.completions.create(
                model="x", messages=[{"role": "user", "content": TEXT}]
            )
            self.answer = r.choices[0].message.content
        except BaseException as exc:
            self.error = exc

    def done(self) -> bool:
        return not self.thread.is_alive()


class LeavingApp:
    """An app that sends a request from its own thread and hangs up when ``leave`` is set
    (as a client whose timeout ran out does), never before."""

    def __init__(self, control: ProxyControl) -> None:
        self.url = urlsplit(control.base_url)
        self.token = control.copy_token()
        self.leave = threading.Event()
        self.thread = threading.Thread(target=self._ask)
        self.thread.start()

    def _ask(self) -> None:
        conn = http.client.HTTPConnection(self.url.hostname or "", self.url.port, timeout=HANG_S)
        body = json.dumps({"model": "x", "messages": [{"role": "user", "content": TEXT}]})
        headers = {
            "Authorization": f"Bearer {self.token}",
            "Content-Type": "application/json",
            "X-Sottovoce-Client": APP,
        }
        conn.request("POST", f"{self.url.path}/chat/completions", body, headers)
        self.leave.wait(HANG_S)
        assert conn.sock is not None
        conn.sock.shutdown(socket.SHUT_RDWR)
        conn.close()

    def done(self) -> bool:
        return not self.thread.is_alive()


def waiting_dialog(qtbot: Any, control: ProxyControl) -> Any:
    qtbot.waitUntil(lambda: control.dialog is not None and control.dialog.isVisible(), timeout=20000)
    return control.dialog


def test_a_proxied_request_waits_in_the_approval_view_with_the_apps_name(
    qtbot: Any, served: ProxyControl, cloud: FakeCloud
) -> None:
    app = App(served)
    dlg = waiting_dialog(qtbot, served)
    assert APP in dlg.windowTitle() and APP in dlg.source_label.text()
    assert not dlg.edit_btn.isVisible()  # an app's text is not edited here
    shown = dlg.payload.toPlainText()
    assert "[PHONE_1]" in shown and PHONE not in shown
    assert cloud.received == []  # nothing left while it waits
    dlg.send_btn.click()
    qtbot.waitUntil(app.done, timeout=20000)
    assert app.error is None and app.answer is not None and PHONE in app.answer
    assert PHONE not in str(cloud.received)
    assert cloud.received[0] == dlg.prepared.messages  # exactly what was shown


def test_a_value_unticked_in_the_view_is_sent_as_shown(
    qtbot: Any, served: ProxyControl, cloud: FakeCloud
) -> None:
    app = App(served)
    dlg = waiting_dialog(qtbot, served)
    dlg.set_protected("[PHONE_1]", False)
    wait_revised(qtbot, dlg)  # made in a worker; Send waits for it
    assert PHONE in dlg.payload.toPlainText()  # the preview shows the value in clear
    dlg.send_btn.click()
    qtbot.waitUntil(app.done, timeout=20000)
    assert app.error is None
    assert cloud.received[0] == dlg.prepared.messages and PHONE in str(cloud.received)


def test_cancel_in_the_view_refuses_the_app_and_sends_nothing(
    qtbot: Any, served: ProxyControl, cloud: FakeCloud
) -> None:
    app = App(served)
    waiting_dialog(qtbot, served).cancel_btn.click()
    qtbot.waitUntil(app.done, timeout=20000)
    assert isinstance(app.error, openai.PermissionDeniedError)
    assert app.error.body["code"] == "approval_declined"  # type: ignore[index]
    assert cloud.received == []


def test_an_app_that_stops_waiting_withdraws_its_request(
    qtbot: Any, served: ProxyControl, cloud: FakeCloud
) -> None:
    # It leaves once its request waits in the view (a short client timeout could
    # run out before the view shows, on a busy machine).
    app = LeavingApp(served)
    waiting_dialog(qtbot, served)
    app.leave.set()
    qtbot.waitUntil(app.done, timeout=20000)
    # The view closes by itself (and is deleted).
    qtbot.waitUntil(lambda: served.dialog is None, timeout=10000)
    assert find_dialog(ApprovalDialog) is None
    assert "withdrawn" in served.window.statusBar().currentMessage()
    assert cloud.received == []


def test_stopping_the_proxy_frees_the_port(qtbot: Any, served: ProxyControl) -> None:
    url = served.base_url
    served.action.trigger()
    assert served.server is None and not served.action.isChecked()
    with pytest.raises(openai.APIConnectionError):
        openai.OpenAI(base_url=url, api_key="x", max_retries=0, timeout=3).models.list()


def test_the_settings_can_start_it_with_the_window(
    qtbot: Any, make_engine: Callable[..., Any]
) -> None:
    from ui.main_window import MainWindow

    engine = make_engine(proxy_in_window=True, proxy_port=free_port())
    w = MainWindow(engine, load_models=False)
    qtbot.addWidget(w)
    control = ProxyControl(w, engine, serve_in_thread)
    control.install(w.privacy_menu)
    try:
        qtbot.waitUntil(lambda: control.server is not None, timeout=10000)
        assert control.action.isChecked()
        assert control.base_url == f"http://127.0.0.1:{engine.settings.proxy_port}/v1"
    finally:
        control.stop()
        w.close()

