/* The python executable: everything happens in Py_BytesMain. */

#include "Python.h"

int
main(int argc, char **argv)
{
    return Py_BytesMain(argc, argv);
}
