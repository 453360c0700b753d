"""The HTTP and websocket routes, one :class:`fastapi.APIRouter` per concern:
:mod:`~cardtable.server.routes.pages` (HTML and the lobby's forms),
:mod:`~cardtable.server.routes.api` (JSON) and :mod:`~cardtable.server.routes.websocket`.
"""
