# The Debian package: `cpack -G DEB` in the build folder writes irlens_<version>_<arch>.deb with what
# `cmake --install` puts under /usr (bin/irlens, bin/irlens-cli, their man pages, the bash completion, the
# desktop files, the copyright and changelog Debian asks for). Its dependencies are computed by
# dpkg-shlibdeps from the libraries the two executables actually link (Qt 6, Graphviz, oneTBB, oneDNN,
# libzip ...), so they follow whatever this machine built against. `scripts/irlens-dev package` builds it
# and checks it with lintian, which must report nothing.
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "irlens")
set(CPACK_PACKAGE_VENDOR "The irlens developers")
set(CPACK_PACKAGE_CONTACT "irlens developers <irlens-dev@example.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "inspector for PyTorch torch.export programs (.pt2)")
# Debian wants the lines of the long description under 80 columns.
set(CPACK_PACKAGE_DESCRIPTION
  "irlens opens the .pt2 programs written by torch.export (every format era),\n"
  "draws the graph, checks it against the Export IR rules, steps its\n"
  "decomposition from the training IR to Core ATen to Prims, and runs it on a\n"
  "parallel CPU engine that times every node. It describes AOTInductor\n"
  "packages too. irlens-cli offers the same for scripts.")
string(REPLACE ";" "" CPACK_PACKAGE_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION}")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# irlens-capture is a Python 3 script; the libraries come from dpkg-shlibdeps
set(CPACK_DEBIAN_PACKAGE_DEPENDS "python3")
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS OFF)

# /usr/share/doc/irlens/copyright in Debian's machine-readable format, written from LICENSE so the two
# cannot differ, and the changelog (resources/debian/changelog, gzip -9n), whose latest entry must be
# this version: a version bump without its entry stops the configure step.
set(_licence_file "${PROJECT_SOURCE_DIR}/LICENSE")
set(_changelog "${PROJECT_SOURCE_DIR}/resources/debian/changelog")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_licence_file}" "${_changelog}")
file(STRINGS "${_changelog}" _latest LIMIT_COUNT 1)
if(NOT _latest MATCHES "^irlens \\(${PROJECT_VERSION}\\) ")
  message(FATAL_ERROR "resources/debian/changelog begins with '${_latest}', not an entry for irlens ${PROJECT_VERSION}: add one")
endif()
file(READ "${_licence_file}" _licence)
if(NOT _licence MATCHES "Copyright \\(c\\) ([^\n]+)\n.*(Redistribution and use.*)$")
  message(FATAL_ERROR "LICENSE: no 'Copyright (c) HOLDER' line followed by the BSD terms")
endif()
set(_holder "${CMAKE_MATCH_1}")
string(STRIP "${CMAKE_MATCH_2}" _terms)
string(REGEX REPLACE "\n\n" "\n.\n" _terms "${_terms}") # an empty line of a field is " ."
string(REPLACE "\n" "\n " _terms "${_terms}")
set(_doc_dir "${PROJECT_BINARY_DIR}/share/doc/irlens")
file(WRITE "${_doc_dir}/copyright.tmp"
  "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
  "Upstream-Name: irlens\n"
  "Upstream-Contact: ${CPACK_PACKAGE_CONTACT}\n"
  "Comment: The executables link FFTW 3 (GPL-2+), so this package as a whole is\n"
  " distributed under the GPL, version 2 or later; FFTW's own terms are in\n"
  " /usr/share/doc/libfftw3-double3/copyright.\n\n"
  "Files: *\n"
  "Copyright: ${_holder}\n"
  "License: BSD-3-clause\n\n"
  "License: BSD-3-clause\n"
  " ${_terms}\n")
configure_file("${_doc_dir}/copyright.tmp" "${_doc_dir}/copyright" COPYONLY)
execute_process(COMMAND gzip -9n -c "${_changelog}" OUTPUT_FILE "${_doc_dir}/changelog.gz" RESULT_VARIABLE _gzip)
if(NOT _gzip EQUAL 0)
  message(FATAL_ERROR "gzip of resources/debian/changelog failed (${_gzip})")
endif()
install(FILES "${_doc_dir}/copyright" "${_doc_dir}/changelog.gz" DESTINATION "${CMAKE_INSTALL_DATADIR}/doc/irlens")
include(CPack)
