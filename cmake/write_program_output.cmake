# cmake -DEXE=program -DARG=--flag -DOUT=file [-DGZIP=ON] -P write_program_output.cmake
# Writes what `EXE ARG` prints to OUT (and with GZIP, OUT.gz as Debian wants man pages: gzip -9n, no
# name or time stamp in the header, so the same text gives the same bytes). Fails when EXE fails.
get_filename_component(_dir "${OUT}" DIRECTORY)
file(MAKE_DIRECTORY "${_dir}")
execute_process(COMMAND "${EXE}" "${ARG}" OUTPUT_FILE "${OUT}.tmp" ERROR_VARIABLE _err RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  file(REMOVE "${OUT}.tmp")
  message(FATAL_ERROR "${EXE} ${ARG} failed (${_rc}): ${_err}")
endif()
file(RENAME "${OUT}.tmp" "${OUT}")
if(GZIP)
  execute_process(COMMAND gzip -9n -c "${OUT}" OUTPUT_FILE "${OUT}.gz" RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "gzip ${OUT} failed (${_rc})")
  endif()
endif()
