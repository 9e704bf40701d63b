this is not a signature
