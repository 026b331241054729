"""Table and figure builders shared by the Streamlit pages and Jupyter: plain data in, plain rows out."""
