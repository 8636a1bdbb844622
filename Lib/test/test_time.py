# The time module's clocks and sleep.
import time

t0 = time.perf_counter()
time.sleep(0.01)
elapsed = time.perf_counter() - t0
print(0.009 < elapsed < 5.0, time.time() > 1.7e9, isinstance(time.time_ns(), int))
print(time.monotonic() <= time.monotonic(), time.process_time() >= 0)
for bad in (-1, "x"):
    try:
        time.sleep(bad)
    except (ValueError, TypeError) as e:
        print(type(e).__name__)
