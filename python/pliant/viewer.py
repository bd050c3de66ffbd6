"""The viewer window following a Data that the script steps, as
`mujoco.viewer.launch_passive`:

    with pliant.viewer.launch_passive(model, data) as viewer:
        while viewer.is_running():
            pliant.step(model, data)
            viewer.sync()

The window runs on its own thread with its own copies of the model and the
state; `sync()` shows the script's current state and applies a mouse
perturbation (Ctrl + drag) to `data.xfrc_applied`. It needs a display (or
Xvfb). Model edits after the launch are not shown (the window keeps the
model it was launched with).
"""
import threading

from . import _pliant


class Handle:
    """What launch_passive returns."""

    def __init__(self, model, data, width, height, hide_panels, state_log):
        self._model, self._data = model, data
        self._impl = _pliant._PassiveViewer(model, data, width, height, hide_panels,
                                            state_log or "")
        self._lock = threading.Lock()

    def lock(self):
        """A lock for the script's edits between syncs (as MuJoCo's handle
        offers; the window reads only what sync() copies, so it is never
        needed for the window's sake)."""
        return self._lock

    def sync(self):
        """Shows the data's current state (and hands it the user's perturbation)."""
        with self._lock:
            self._impl.sync(self._data)

    def is_running(self):
        return self._impl.is_running()

    def close(self):
        self._impl.close()

    def shown_time(self):
        """data.time of the state the window drew last (-1 before the first)."""
        return self._impl.shown_time()

    def shows_last_sync(self):
        """Whether the window has drawn the state of the last sync()."""
        return self._impl.shows_last_sync()

    def frames(self):
        return self._impl.frames()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def launch_passive(model, data, *, key_callback=None, show_left_ui=True, show_right_ui=True,
                   width=1280, height=800, state_log=None):
    """Opens the viewer on `model` showing `data`; returns at once with a Handle."""
    if key_callback is not None:
        raise NotImplementedError("pliant.viewer.launch_passive: key_callback is not offered")
    if not getattr(_pliant, "_render_available", False):
        raise NotImplementedError(
            "pliant.viewer.launch_passive: this build of Pliant has no viewer library")
    return Handle(model, data, width, height, not (show_left_ui or show_right_ui), state_log)


def launch(*args, **kwargs):
    raise NotImplementedError("pliant.viewer.launch (the managed viewer) is not offered: use "
                              "launch_passive, or the pliant view command")
