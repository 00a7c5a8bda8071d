# Sourced by the nltrain MPI tests (after cli_assert.sh): shared memory between the ranks; root in
# CI; more ranks than this machine's cores; LeakSanitizer off (Open MPI keeps allocations to exit
# by design).
export OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export ASAN_OPTIONS=detect_leaks=0
