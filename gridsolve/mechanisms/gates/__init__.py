"""Gates and their key: edges of the board that block every piece while closed (``gates:``),
flipped by the key action of the after_ply script (``gate: {key: MARK}``)."""
