VALUE = "relative import ok"
