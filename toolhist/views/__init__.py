"""Table and figure builders shared by the Streamlit pages and Jupyter: plain data in, plain rows out.

``summary``, ``matrix``, ``violations``, ``timeline``, ``payloads`` and ``diffs`` are pure (pandas
and plotly only) and work in a notebook as they are. ``state`` (the open session, caches, deep-link
parameters) and ``widgets`` (a message shown with its blocks and violations) are the app's own and
import Streamlit.
"""
