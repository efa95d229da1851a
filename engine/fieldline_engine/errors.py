"""Errors the engine reports to the server with a stable code and a user-facing message."""


class EngineError(Exception):
    """A failure the user can act on. `code` is stable; `message` is shown to the user."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


class InvalidInput(EngineError):
    def __init__(self, message: str):
        super().__init__("invalid_input", message)
