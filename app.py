"""toolhist's Streamlit entry point: the pages and their order in the sidebar.

``streamlit run app.py`` (``./dev app``) starts here. The home page lives in ``home.py``; declaring
the pages with ``st.navigation`` gives it the title "Home" in the sidebar, where the script's file
name ("app") stood before. The other pages keep their files, titles and addresses (``/Timeline``…).
No page has an icon: Streamlit makes a page's icon the tab's favicon, and a Material icon is fetched
from a font CDN, which an offline tool must not reach.
"""

from __future__ import annotations

import streamlit as st

from toolhist.views.widgets import PAGES

# Sidebar titles other than the one Streamlit infers from the file name (``1_Timeline.py``: Timeline).
# (A comment, not a docstring: Streamlit's magic would show a bare string on every page.)
TITLES = {"home": "Home", "explain": "Explain a 400"}

st.navigation(
    [st.Page(page, title=TITLES.get(name), default=name == "home") for name, page in PAGES.items()]
).run()
