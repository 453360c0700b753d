"""The web server: tables over websockets for browsers (above the table layer)."""
