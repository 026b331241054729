"""Peer libraries run for real: LiteLLM and the OpenAI Agents SDK, pinned, in their own environment.

`toolhist.peers.pins` names the versions, `toolhist.peers.env` makes and finds the cached
environment, `toolhist.peers.run` runs a library there over a batch of histories and returns the
request bodies it would send, and `toolhist.peers.mapping` reads such a body back as a curated
Session with the Changes the library made.
"""
