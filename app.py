"""toolhist's Streamlit entry point: the pages and their order in the sidebar.

``streamlit run app.py`` (``./dev app``) starts here. The home page lives in ``home.py``; declaring
the pages with ``st.navigation`` gives it the title "Home" in the sidebar, where the script's file
name ("app") stood before. The other pages keep their files, titles and addresses (``/Timeline``…).
The page scripts live in ``app_pages/``, not ``pages/``: with a folder named ``pages`` beside this
script Streamlit runs a fresh server's sessions as an old-style multipage app (the sidebar built from
file names, this script not run) until some session has called ``st.navigation``, so a subpage link
opened first showed "app" and "Explain" in the sidebar (streamlit ``PagesManager.uses_pages_directory``,
``script_runner._mpa_v1``; tests/browser/test_first_request_browser.py).
No page has an icon: Streamlit makes a page's icon the tab's favicon, and a Material icon is fetched
from a font CDN, which an offline tool must not reach.
"""

from __future__ import annotations

import streamlit as st

from toolhist.views.warm import warm
from toolhist.views.widgets import PAGES

# Sidebar titles other than the one Streamlit infers from the file name (``1_Timeline.py``: Timeline).
# (A comment, not a docstring: Streamlit's magic would show a bare string on every page.)
TITLES = {"home": "Home", "explain": "Explain a 400"}

warm()  # once per server: the imports the pages' first visits would wait for

st.navigation(
    [st.Page(page, title=TITLES.get(name), default=name == "home") for name, page in PAGES.items()]
).run()
