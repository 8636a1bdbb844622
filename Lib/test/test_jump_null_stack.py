# A debugger jump onto a line whose code expects a plain object where the
# current stack holds a NULL-or-self slot (the method call of line 5) is
# refused, never executed with the NULL.
import sys
def f(output):
    a = 1
    list.append(
        output, 3
    )
    output.append(5)
    (
        ( # 7
            a
            +
            10
        )
        +
        13
    ).bit_length()
    output.append(15)
def tracer(frame, event, arg):
    if frame.f_code is f.__code__:
        if event == 'line' and frame.f_lineno == f.__code__.co_firstlineno + 3:
            try:
                frame.f_lineno = f.__code__.co_firstlineno + 7
            except ValueError as e:
                print('VE', e)
        return tracer
    return None
sys.settrace(tracer)
out = []
f(out)
sys.settrace(None)
print(out)
