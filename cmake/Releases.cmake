# The releases this library stands in for, read from releases/table (see
# releases/README.md). Nothing else in the build names a release: the
# version of the library file, the provider ABI, the symbol map and the
# reference packages of the tests all come from here.
#
# Sets, for every release R of the table (oldest first):
#   IBV_RELEASES               the list of releases
#   IBV_RELEASE_<R>_DEBIAN     the Debian revision of the reference
#   IBV_RELEASE_<R>_SUITE      the Debian suite that ships it
#   IBV_RELEASE_<R>_ABI        its newest public node (IBVERBS_<abi>)
#   IBV_RELEASE_<R>_PABI       its provider ABI number
#   IBV_RELEASE_<R>_KERNEL     the kernel series of its suite
#   IBV_RELEASE_<R>_QP_EX      sizeof(struct ibv_qp_ex) in R
#   IBV_RELEASE_<R>_DMABUF     ibv_cmd_reg_dmabuf_mr()'s argument count in R
#   IBV_RELEASE_<R>_GROUP      how R's Debian libibverbs1 makes the rdma group
#                              (only debian/ reads it)
#   IBV_RELEASE_<R>_SYMBOLS    releases/<R>/symbols
#   IBV_HOST_SUITE, IBV_HOST_RELEASES  this machine's suite (os-release)
#                              and the releases of the table it ships
# and for the library built here, which exports what the newest release
# exports (each older release's definitions are a subset):
#   IBV_RELEASE_OLDEST, IBV_RELEASE_NEWEST, PACKAGE_VERSION, IBVERBS_ABI_LEVEL,
#   IBVERBS_PABI_VERSION, IBVERBS_PROVIDER_SUFFIX
# and, since the library serves the providers of every release at once:
#   IBV_PABIS                  the provider ABIs of the table, oldest first
#   IBV_PABI_<N>_RELEASE       the newest release of provider ABI N, whose
#                              symbol list says what that ABI exports

set(IBV_RELEASE_DIR ${CMAKE_CURRENT_LIST_DIR}/../releases)
get_filename_component(IBV_RELEASE_DIR ${IBV_RELEASE_DIR} ABSOLUTE)
set(IBV_RELEASE_TABLE ${IBV_RELEASE_DIR}/table)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
  ${IBV_RELEASE_TABLE})

set(IBV_RELEASES "")
file(STRINGS ${IBV_RELEASE_TABLE} _ibv_rows REGEX "^[0-9]")
foreach(_row IN LISTS _ibv_rows)
  string(REGEX REPLACE "[ \t]+" ";" _f "${_row}")
  list(LENGTH _f _n)
  if(NOT _n EQUAL 9)
    message(FATAL_ERROR "releases/table: '${_row}' has ${_n} columns, "
      "not 9 (release debian suite abi pabi kernel qp_ex dmabuf group)")
  endif()
  list(GET _f 0 _r)
  list(APPEND IBV_RELEASES ${_r})
  set(_i 1)
  foreach(_col DEBIAN SUITE ABI PABI KERNEL QP_EX DMABUF GROUP)
    list(GET _f ${_i} IBV_RELEASE_${_r}_${_col})
    math(EXPR _i "${_i} + 1")
  endforeach()
  set(IBV_RELEASE_${_r}_SYMBOLS ${IBV_RELEASE_DIR}/${_r}/symbols)
  if(NOT EXISTS ${IBV_RELEASE_${_r}_SYMBOLS})
    message(FATAL_ERROR "releases/table names ${_r}, but "
      "releases/${_r}/symbols is missing")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
    ${IBV_RELEASE_${_r}_SYMBOLS})
endforeach()
if(NOT IBV_RELEASES)
  message(FATAL_ERROR "releases/table names no release")
endif()

list(GET IBV_RELEASES 0 IBV_RELEASE_OLDEST)
list(GET IBV_RELEASES -1 IBV_RELEASE_NEWEST)
set(PACKAGE_VERSION ${IBV_RELEASE_NEWEST})
set(IBVERBS_ABI_LEVEL ${IBV_RELEASE_${IBV_RELEASE_NEWEST}_ABI})
set(IBVERBS_PABI_VERSION ${IBV_RELEASE_${IBV_RELEASE_NEWEST}_PABI})
set(IBVERBS_PROVIDER_SUFFIX "-rdmav${IBVERBS_PABI_VERSION}.so")
set(IBV_PABIS "")
foreach(_r IN LISTS IBV_RELEASES)
  set(_p ${IBV_RELEASE_${_r}_PABI})
  list(APPEND IBV_PABIS ${_p})
  set(IBV_PABI_${_p}_RELEASE ${_r})
endforeach()
list(REMOVE_DUPLICATES IBV_PABIS)

# The suite of the machine that builds: a release of another suite has
# binaries for another C library, which run only in a root of their own.
set(IBV_HOST_SUITE "")
if(EXISTS /etc/os-release)
  file(STRINGS /etc/os-release _os REGEX "^VERSION_CODENAME=")
  string(REGEX REPLACE "^VERSION_CODENAME=\"?([^\"]*)\"?$" "\\1"
    IBV_HOST_SUITE "${_os}")
endif()
set(IBV_HOST_RELEASES "")
foreach(_r IN LISTS IBV_RELEASES)
  if(IBV_RELEASE_${_r}_SUITE STREQUAL IBV_HOST_SUITE)
    list(APPEND IBV_HOST_RELEASES ${_r})
  endif()
endforeach()

# ibv_reference_root(R VAR): where the tests find release R's Debian
# packages unpacked (tests/reference/fetch fills it at test time); for
# the oldest release, REFERENCE_ROOT once the top CMakeLists.txt set it.
function(ibv_reference_root release var)
  if(release STREQUAL IBV_RELEASE_OLDEST AND DEFINED REFERENCE_ROOT)
    set(${var} ${REFERENCE_ROOT} PARENT_SCOPE)
  else()
    set(${var} ${CMAKE_BINARY_DIR}/reference/${release}/root PARENT_SCOPE)
  endif()
endfunction()

# ibv_write_map(OUT): the linker's version script, written from the union
# of the releases' symbol lists. A public node inherits the one before it
# (IBVERBS_1.0 <- IBVERBS_1.1 <- ...); a provider ABI node stands alone.
# A name appears in every node that has a definition of it, default or
# compat: the compat ones are bound to their node by .symver in the code.
# A name no release of ours defines yet is harmless: the linker exports
# only what the library defines.
function(ibv_write_map out)
  set(nodes "")
  foreach(r IN LISTS IBV_RELEASES)
    file(STRINGS ${IBV_RELEASE_${r}_SYMBOLS} defs REGEX "@")
    foreach(def IN LISTS defs)
      string(REGEX MATCH "^([^@]+)@@?(.+)$" _ "${def}")
      set(name ${CMAKE_MATCH_1})
      set(node ${CMAKE_MATCH_2})
      list(APPEND nodes ${node})
      list(APPEND names_${node} ${name})
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES nodes)
  # IBVERBS_1.<minor> in numeric order, then the provider nodes.
  set(public "")
  set(private "")
  foreach(node IN LISTS nodes)
    if(node MATCHES "^IBVERBS_1\\.([0-9]+)$")
      math(EXPR key "1000 + ${CMAKE_MATCH_1}")
      list(APPEND public "${key}:${node}")
    else()
      list(APPEND private ${node})
    endif()
  endforeach()
  list(SORT public)
  list(SORT private)
  set(text "/* Generated by cmake/Releases.cmake from the releases' symbols. */\n")
  set(parent "")
  foreach(entry IN LISTS public private)
    string(REGEX REPLACE "^[0-9]+:" "" node "${entry}")
    set(names ${names_${node}})
    list(REMOVE_DUPLICATES names)
    list(SORT names)
    string(APPEND text "\n${node} {\n\tglobal:\n")
    foreach(name IN LISTS names)
      string(APPEND text "\t\t${name};\n")
    endforeach()
    # What no node names stays inside the library.
    if(NOT parent AND node MATCHES "^IBVERBS_1\\.")
      string(APPEND text "\tlocal:\n\t\t*;\n")
    endif()
    if(node MATCHES "^IBVERBS_1\\." AND parent)
      string(APPEND text "} ${parent};\n")
    else()
      string(APPEND text "};\n")
    endif()
    if(node MATCHES "^IBVERBS_1\\.")
      set(parent ${node})
    endif()
  endforeach()
  file(CONFIGURE OUTPUT ${out} CONTENT "${text}" @ONLY)
endfunction()
