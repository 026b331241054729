"""Cline, Roo Code and Kilo Code: one task file (`reader`), XML-era calls (`xml_calls`), Cline's send path."""
