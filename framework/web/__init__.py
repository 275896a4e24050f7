"""The web table (``tapete serve``): people and bots at one match from their browsers.

The server holds the cards; each page is sent only what its seat's view shows.
`app` is the Starlette application and the connection protocol, `tables` the live
matches, `store` the SQLite file, `messages` what a seat is sent. Needs the ``web``
extra (``pip install 'tapete[web]'``); docs/web.md says how to host a table.
"""
