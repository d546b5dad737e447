# Helpers shared by every folder.

# irlens_core_library(NAME folder DEPS ...): a static library from every .cpp in the folder.
function(irlens_core_library name dir)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  file(GLOB srcs CONFIGURE_DEPENDS "${dir}/*.cpp" "${dir}/*/*.cpp" "${dir}/*/*/*.cpp")
  file(GLOB hdrs CONFIGURE_DEPENDS "${dir}/*.h" "${dir}/*/*.h" "${dir}/*/*/*.h")
  if(NOT srcs)
    # a folder still empty: keep the target so dependents link
    set(stub "${CMAKE_CURRENT_BINARY_DIR}/${name}_empty.cpp")
    file(WRITE "${stub}" "// ${dir} has no sources yet\n")
    set(srcs "${stub}")
  endif()
  add_library(${name} STATIC ${srcs} ${hdrs})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(${name} PUBLIC ${ARG_DEPS})
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  # Unity batches: the kernels share templates (loops, dispatch, tensor ops) that each file compiled
  # anew; in batches of 8 a cold build of core takes less than half the CPU time (IRLENS_UNITY_BUILD=OFF
  # compiles file by file, for the fastest rebuild of one file).
  if(IRLENS_UNITY_BUILD)
    set_target_properties(${name} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  endif()
endfunction()

# irlens_add_test(NAME SOURCES ... LIBS ... [NEEDS_SHARED]): a test executable registered with CTest.
# NEEDS_SHARED passes IRLENS_SHARED_DIR; the test itself skips with a message when the folder is absent.
function(irlens_add_test name)
  cmake_parse_arguments(ARG "QT" "TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
  # A sanitizer build (IRLENS_SANITIZER_TESTS_ONLY) builds only the tests listed in
  # tests/CMakeLists.txt's IRLENS_SANITIZED_TESTS: the readers of hostile input, the engine and the CLI.
  if(IRLENS_SANITIZER_TESTS_ONLY AND NOT name IN_LIST IRLENS_SANITIZED_TESTS)
    return()
  endif()
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS})
  # The test's Q_OBJECT class is moc'ed here rather than by AUTOMOC: a test file's class needs no macro
  # from its headers, so moc reads the file alone (0.01 s, where AUTOMOC's run over every header the
  # file includes takes 1.4 s), and no empty mocs_compilation.cpp is compiled against the precompiled
  # header (1.3 s): about two minutes of a cold build on two cores. The file includes "<stem>.moc".
  set_target_properties(${name} PROPERTIES AUTOMOC OFF)
  foreach(src IN LISTS ARG_SOURCES)
    if(NOT src MATCHES "\\.cpp$")
      continue()
    endif()
    get_filename_component(abs "${src}" ABSOLUTE)
    get_filename_component(stem "${src}" NAME_WE)
    set(moc_out "${CMAKE_CURRENT_BINARY_DIR}/${name}_moc/${stem}.moc")
    add_custom_command(OUTPUT "${moc_out}" COMMAND Qt6::moc --no-notes "${abs}" -o "${moc_out}"
                       DEPENDS "${abs}" Qt6::moc VERBATIM)
    target_sources(${name} PRIVATE "${moc_out}")
  endforeach()
  target_include_directories(${name} PRIVATE "${CMAKE_CURRENT_BINARY_DIR}/${name}_moc")
  # The test's own code at IRLENS_TEST_CODE_OPT (-O1): it compiles about a quarter faster than at
  # -O2, and what a test spends its time in (the libraries) keeps the build's flags. The sanitizer
  # presets say -O0: instrumented test files compile in half the time (tst_pt2_reader 50 -> 25 s)
  # and are still checked. A later -O wins with GCC and clang.
  target_compile_options(${name} PRIVATE $<$<CONFIG:RelWithDebInfo,Release>:${IRLENS_TEST_CODE_OPT}>)
  if(TARGET irlens_test_pch)
    target_precompile_headers(${name} REUSE_FROM irlens_test_pch)
  endif()
  target_compile_definitions(${name} PRIVATE
    IRLENS_SHARED_DIR="${IRLENS_SHARED_DIR}"
    IRLENS_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    IRLENS_BINARY_DIR="${PROJECT_BINARY_DIR}")
  add_test(NAME ${name} COMMAND ${name})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 600)
  endif()
  # Qt Test aborts a test function after 300 s of its own; on a loaded 2-core machine the expanded
  # llama_deep checks can take longer, so one limit governs: the test's TIMEOUT
  math(EXPR _function_ms "${ARG_TIMEOUT} * 1000")
  # XDG_CACHE_HOME: runs measure this machine's roofs once and cache them there (machine_roofs.h);
  # tests keep that cache in the build tree, out of the user's home
  set_tests_properties(${name} PROPERTIES TIMEOUT ${ARG_TIMEOUT}
    ENVIRONMENT "QT_QPA_PLATFORM=offscreen;IRLENS_SHARED_DIR=${IRLENS_SHARED_DIR};QTEST_FUNCTION_TIMEOUT=${_function_ms};XDG_CACHE_HOME=${PROJECT_BINARY_DIR}/test-cache")
  # A test whose checks skipped because ../shared is absent (IRLENS_REQUIRE_SHARED's message) and
  # that failed nothing is reported as skipped, not passed: on a fresh clone CTest's summary says
  # how much did not run. A failure still fails (the pattern needs Qt Test's "0 failed").
  set_tests_properties(${name} PROPERTIES
    SKIP_REGULAR_EXPRESSION "shared/fixtures not found \\(set IRLENS_SHARED_DIR\\).*Totals: [0-9]+ passed, 0 failed")
  if(ARG_LABELS)
    set_tests_properties(${name} PROPERTIES LABELS "${ARG_LABELS}")
  endif()
endfunction()
