print("mainpkg imported")
