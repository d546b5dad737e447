# The Debian package: `cpack -G DEB` in the build folder writes irlens_<version>_<arch>.deb with what
# `cmake --install` puts under /usr (bin/irlens, bin/irlens-cli, the desktop files). Its dependencies
# are computed by dpkg-shlibdeps from the libraries the two executables actually link (Qt 6, Graphviz,
# oneTBB, oneDNN, libzip ...), so they follow whatever this machine built against.
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "irlens")
set(CPACK_PACKAGE_VENDOR "The irlens developers")
set(CPACK_PACKAGE_CONTACT "irlens developers <irlens-dev@example.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "inspector for PyTorch torch.export programs (.pt2)")
set(CPACK_PACKAGE_DESCRIPTION
  "irlens opens the .pt2 programs written by torch.export (every format era), draws the graph,\n"
  "checks it against the Export IR rules, steps its decomposition from the training IR to Core ATen\n"
  "to Prims, and runs it on a parallel CPU engine that times every node. It describes AOTInductor\n"
  "packages too. irlens-cli offers the same for scripts.")
string(REPLACE ";" "" CPACK_PACKAGE_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION}")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS OFF)
include(CPack)
