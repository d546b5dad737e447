# cmake -DIN=file -DOUT=file.cpp -DSYMBOL=kName -P embed_text.cmake: the text of IN as a C++ array
# `irlens::core::detail::SYMBOL` (a raw string literal), so a page's script and style ship inside the library.
file(READ "${IN}" _text)
string(FIND "${_text}" ")IRLENS_EMBED\"" _clash)
if(NOT _clash EQUAL -1)
  message(FATAL_ERROR "${IN} contains the raw string delimiter )IRLENS_EMBED\"")
endif()
file(WRITE "${OUT}.tmp" "// generated from ${IN} by cmake/embed_text.cmake\nnamespace irlens::core::detail {\nextern const char ${SYMBOL}[];\nconst char ${SYMBOL}[] = R\"IRLENS_EMBED(${_text})IRLENS_EMBED\";\n}\n")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
