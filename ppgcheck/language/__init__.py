"""The report language: text <-> Report <-> input facts, in the words of the core and of a
policy's pack (whose files it reads only through ppgcheck.packs)."""
