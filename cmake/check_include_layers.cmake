# Fails when the folders of core/ or of views/ include each other in a circle, or when a folder
# includes one it must not (FORBIDDEN_INCLUDES). Run as the CTest tests include_layers and
# include_layers_self_test.
#
#   cmake -DSOURCE_DIR=<checkout> -P check_include_layers.cmake
#   cmake -DSELF_TEST=ON -DWORK_DIR=<scratch folder> -P check_include_layers.cmake
#
# A folder is a subfolder of core/ or views/ (core/io, views/graph); `#include "views/graph/x.h"` in
# a file under views/run/ is the arrow run → graph. The files directly in views/ (the Document and
# the main window) are the top of the views, which every folder sees and which sees every folder, so
# they take no part in the circles.

cmake_minimum_required(VERSION 3.25) # IN_LIST, list(POP_FRONT), list(PREPEND)

# "from>to": folder `from` must not include anything of folder `to`. The verifier checks the model,
# wherever it came from (a file, a builder, a decomposition step): it reads core/ir and the op
# registry, never the readers and writers of core/io.
set(FORBIDDEN_INCLUDES "core/verify>core/io")

# The arrows between the folders of AREA under ROOT: sets <prefix>_folders and, for each folder F,
# <prefix>_to_F (the folders it includes) and <prefix>_via_F_G (one file of F that includes G).
function(collect_arrows root area prefix)
  file(GLOB children LIST_DIRECTORIES true "${root}/${area}/*")
  set(folders "")
  foreach(child IN LISTS children)
    if(IS_DIRECTORY "${child}")
      get_filename_component(name "${child}" NAME)
      list(APPEND folders "${name}")
    endif()
  endforeach()
  foreach(from IN LISTS folders)
    set(targets "")
    file(GLOB_RECURSE files "${root}/${area}/${from}/*.h" "${root}/${area}/${from}/*.cpp")
    list(SORT files)
    foreach(f IN LISTS files)
      file(STRINGS "${f}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"${area}/[A-Za-z0-9_]+/")
      foreach(line IN LISTS lines)
        string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"${area}/([A-Za-z0-9_]+)/.*" "\\1" to "${line}")
        if(NOT to STREQUAL from AND NOT to IN_LIST targets)
          list(APPEND targets "${to}")
          file(RELATIVE_PATH rel "${root}" "${f}")
          set(${prefix}_via_${from}_${to} "${rel}" PARENT_SCOPE)
        endif()
      endforeach()
    endforeach()
    set(${prefix}_to_${from} "${targets}" PARENT_SCOPE)
  endforeach()
  set(${prefix}_folders "${folders}" PARENT_SCOPE)
endfunction()

# Sets OUT to one message per defect found in the checkout at ROOT; FORBIDDEN holds "from>to" pairs
# of folders (core/verify>core/io).
function(check_include_layers root forbidden out)
  set(problems "")
  foreach(area core views)
    collect_arrows("${root}" ${area} a)
    foreach(from IN LISTS a_folders)
      # the folders `from` reaches by following arrows, and through which folder each was first reached
      set(reached "")
      set(frontier "${from}")
      while(frontier)
        list(POP_FRONT frontier node)
        foreach(next IN LISTS a_to_${node})
          if(NOT next IN_LIST reached)
            list(APPEND reached "${next}")
            list(APPEND frontier "${next}")
            set(parent_${next} "${node}")
          endif()
        endforeach()
      endwhile()
      if(from IN_LIST reached)
        # the circle, walked back from `from` to itself
        set(circle "${area}/${from}")
        set(step "${from}")
        set(files "")
        while(TRUE)
          set(prev "${parent_${step}}")
          list(PREPEND circle "${area}/${prev}")
          list(PREPEND files "${a_via_${prev}_${step}}")
          set(step "${prev}")
          if(step STREQUAL from)
            break()
          endif()
        endwhile()
        # each circle once: from the first of its folders in alphabetical order
        set(members "${circle}")
        list(SORT members)
        list(GET members 0 first)
        if(first STREQUAL "${area}/${from}")
          list(JOIN circle " → " circle_text)
          list(JOIN files ", " files_text)
          list(APPEND problems "circle ${circle_text} (through ${files_text})")
        endif()
      endif()
      foreach(name IN LISTS reached)
        unset(parent_${name})
      endforeach()
    endforeach()
    foreach(rule IN LISTS forbidden)
      string(REPLACE ">" ";" pair "${rule}")
      list(GET pair 0 from_path)
      list(GET pair 1 to_path)
      if(from_path MATCHES "^${area}/([A-Za-z0-9_]+)$")
        set(from "${CMAKE_MATCH_1}")
        string(REGEX REPLACE "^${area}/" "" to "${to_path}")
        if(to IN_LIST a_to_${from})
          list(APPEND problems "${from_path} must not include ${to_path} (${a_via_${from}_${to}} does)")
        endif()
      endif()
    endforeach()
  endforeach()
  set(${out} "${problems}" PARENT_SCOPE)
endfunction()

# Writes FILE under ROOT holding one #include line per header in the remaining arguments.
function(write_including root file)
  set(text "")
  foreach(header IN LISTS ARGN)
    string(APPEND text "#include \"${header}\"\n")
  endforeach()
  file(WRITE "${root}/${file}" "${text}")
endfunction()

if(SELF_TEST)
  # A tree whose arrows run one way, then the same tree with a three-folder circle in views/ and
  # core/verify including core/io: the first must pass, the second must report both.
  set(root "${WORK_DIR}/include_layers_self_test")
  file(REMOVE_RECURSE "${root}")
  write_including("${root}" views/document.h)
  write_including("${root}" views/run/run.cpp views/graph/graph.h views/document.h)
  write_including("${root}" views/decomp/decomp.cpp views/compare/compare.h views/graph/graph.h)
  write_including("${root}" views/compare/compare.h views/graph/graph.h)
  write_including("${root}" views/graph/graph.h core/ir/graph.h)
  write_including("${root}" core/verify/verifier.cpp core/ir/graph.h core/ops/registry.h)
  write_including("${root}" core/io/reader.cpp core/ir/graph.h)
  write_including("${root}" core/ir/graph.h)
  set(forbidden "core/verify>core/io")
  check_include_layers("${root}" "${forbidden}" clean)
  if(clean)
    message(FATAL_ERROR "include_layers self-test: a tree without circles was reported: ${clean}")
  endif()
  write_including("${root}" views/graph/graph_view.cpp views/decomp/decomp.h)
  write_including("${root}" core/verify/names.cpp core/io/printer.h)
  check_include_layers("${root}" "${forbidden}" found)
  set(expected
    "circle views/compare → views/graph → views/decomp → views/compare (through views/compare/compare.h, views/graph/graph_view.cpp, views/decomp/decomp.cpp)"
    "core/verify must not include core/io (core/verify/names.cpp does)")
  foreach(message IN LISTS expected)
    if(NOT message IN_LIST found)
      message(FATAL_ERROR "include_layers self-test: expected \"${message}\" among: ${found}")
    endif()
  endforeach()
  file(REMOVE_RECURSE "${root}")
  message(STATUS "include_layers self-test: a clean tree passes; a circle and a forbidden include are reported")
  return()
endif()

check_include_layers("${SOURCE_DIR}" "${FORBIDDEN_INCLUDES}" problems)
if(problems)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "include layers:\n  ${text}")
endif()
message(STATUS "include_layers: the folders of core/ and views/ include each other one way, none includes a folder it must not (${FORBIDDEN_INCLUDES})")
