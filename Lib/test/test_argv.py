# sys.argv and exit statuses.
import sys
print(sys.argv[1:])
print(sys.argv[0].endswith("test_argv.py"))
sys.exit(3)
