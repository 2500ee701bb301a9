"""`ppgcheck serve`: a judge station (a JSON API and a phone-first page) over the library.

app.py assembles the routes of rulings.py and event_routes.py; base.py holds what they
share (the Station, reading a report, JSON errors, templates); access.py decides who may
write; batching.py rules concurrent requests in one grounding; submissions.py is the
event's one writer; card.py turns a ruling's JSON into the lines its card shows (with
the text renderer's own phrasing); openapi.py documents the API."""
