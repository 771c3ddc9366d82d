"""`bank serve`: a read-only board page of the game for the players' own phones and laptops.

reading.py reads the game file read-only and rebuilds what the page shows when a command is
recorded; chart.py draws the net-worth chart as SVG; app.py holds the web routes (Starlette) and
the templates (Jinja2); serve.py listens (uvicorn) and prints the address and its QR code.

Everything shown comes from the views (ledger.interface.views) and the books: this package holds no
rule and writes nothing. Starlette, uvicorn, Jinja2 and segno are the optional `serve` extra:
nothing here is imported by the rest of the program unless `bank serve` runs.
"""
