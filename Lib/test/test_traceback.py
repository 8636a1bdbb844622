# An uncaught exception prints a traceback to stderr and exits with 1.
def inner(values):
    return values["missing"]

def outer():
    data = {"present": 1}
    return inner(data)

print("before the error")
outer()
print("never printed")
