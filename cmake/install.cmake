# What `cmake --install` puts where (GNUInstallDirs), and the Debian
# package `cpack -G DEB` builds from it.

# The library as users link it: one static archive of every stage's
# objects (the stages are separate archives only to keep includes from
# running back up the stack), with the public headers of lib/include.
set(CCG_ALL_OBJECTS "")
foreach(stage ${CCG_STAGES})
  list(APPEND CCG_ALL_OBJECTS $<TARGET_OBJECTS:ccg_${stage}>)
endforeach()
add_library(ccg_dist STATIC ${CCG_ALL_OBJECTS})
set_target_properties(ccg_dist PROPERTIES OUTPUT_NAME ccg)

# ccgfs.pc finds its prefix from its own place (${pcfiledir}), so that it
# holds for `cmake --install --prefix P` and for the package alike.
file(RELATIVE_PATH CCG_PC_TO_PREFIX
     /p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /p)
string(REGEX REPLACE "/$" "" CCG_PC_TO_PREFIX "${CCG_PC_TO_PREFIX}")
configure_file(${CMAKE_SOURCE_DIR}/lib/ccgfs.pc.in
               ${CMAKE_BINARY_DIR}/ccgfs.pc @ONLY)

install(TARGETS ccgfs RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS ccg_dist ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES lib/include/ccg_trace.h lib/include/ccg_forest.h lib/include/ccg_buf.h
              lib/include/ccg_error.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ccgfs)
install(FILES ${CMAKE_BINARY_DIR}/ccgfs.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
# Man pages go in compressed, as Debian has them (gzip -9n: no name or
# time inside, so the same page gives the same bytes).
find_program(CCG_GZIP gzip REQUIRED)
foreach(page ccgfs.1 ccgfs-gen.1 ccgfs-trace.1 ccgfs.5)
  set(gz ${CMAKE_BINARY_DIR}/man/${page}.gz)
  add_custom_command(OUTPUT ${gz}
    COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_SOURCE_DIR}/doc/man/${page}
            ${CMAKE_BINARY_DIR}/man/${page}
    COMMAND ${CCG_GZIP} -9nf ${CMAKE_BINARY_DIR}/man/${page}
    DEPENDS ${CMAKE_SOURCE_DIR}/doc/man/${page} VERBATIM)
  list(APPEND CCG_MAN_GZ ${gz})
  string(REGEX REPLACE ".*\\." "man" section ${page})
  install(FILES ${gz} DESTINATION ${CMAKE_INSTALL_MANDIR}/${section})
endforeach()
add_custom_target(man ALL DEPENDS ${CCG_MAN_GZ})
install(FILES contrib/completion/ccgfs
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
# The documents README.md points to, at the same place relative to it
# (doc/NAME.md), with the picture doc/views.md shows.
install(FILES doc/usage.md doc/design.md doc/views.md doc/formats.md
              doc/tracer.md doc/benchmarks.md doc/reliability.md
              doc/index-format.md doc/mpi-build.md doc/analysis.md
              doc/timeline.png
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/doc)

# cpack -G DEB: one package; dpkg-shlibdeps (dpkg-dev) turns the shared
# libraries the binaries link into Depends (libfuse3-3, liblz4-1,
# libopen-trace-format2-10, libc6).
set(CPACK_PACKAGE_NAME ccgfs)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "ccgfs maintainers <ccgfs@example.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "read-only FUSE filesystem over OTF2 performance traces")
# The long description (Debian indents it; the summary is its first line).
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
"ccgfs mounts an OTF2 trace (Score-P, lo2s, APEX, ...) as a tree of
directories, one per function call, whose files (events, statistics,
profiles, messages, metrics, time windows) are tab-separated tables.
Includes the trace generator ccgfs-gen and the static library libccg
with its headers and pkg-config file.")
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS fuse3)
# What building against libccg through ccgfs.pc takes.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "pkg-config, libotf2-trace-dev, liblz4-dev")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)
include(CPack)
