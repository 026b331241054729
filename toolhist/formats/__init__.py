"""Provider wire formats (the request bodies each provider takes) and the machinery every reader shares.

- One reader per provider request body: `openai_chat`, `openai_responses`, `anthropic`, `gemini`,
  `bedrock`, and `canonical` (toolhist's own model as JSON); `wire` says which reads which
  provider's body, `bundled` opens a guard bundle as the body it holds.
- The reading machinery: `document` (input, JSON source maps, line numbers), `base` (the `Reader`
  contract and its helpers), `jsonl_stream` (agent logs read as they stream), `not_history` (files
  agents keep beside their histories, named instead of "unknown format").

Agents' own logs are read in `toolhist.agents` (one folder per agent); `toolhist.readers` puts both
in one registry and sniffs content. Nothing here imports `toolhist.agents`: agents' readers build on
these modules, so this package's ``__init__`` stays empty of imports.
"""
