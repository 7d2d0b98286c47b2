import pytest

from local_stack import document


@pytest.fixture(scope="session", autouse=True)
def openapi_document() -> None:
    """The document the meta function serves, put together from this checkout's routes."""
    document.write()
