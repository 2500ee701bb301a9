"""The scenario space and everything searched over it: check and diff."""
