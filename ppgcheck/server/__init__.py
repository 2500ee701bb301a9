"""`ppgcheck serve`: a judge station (a JSON API and a phone-first page) over the library.

app.py routes requests to the library and renders; access.py decides who may write;
batching.py rules concurrent requests in one grounding; card.py turns a ruling's JSON
into the lines its card shows (with the text renderer's own phrasing)."""
