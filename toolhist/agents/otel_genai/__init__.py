"""OpenTelemetry GenAI spans (`reader`), tool spans joined to their calls (`tools`)."""
