/*
 * ccgfs-otf2-read: the bare OTF2 reading loop, a baseline for benchmarks.
 *
 *   ccgfs-otf2-read TRACE
 *
 * Opens the archive whose anchor file is TRACE, reads the global
 * definitions only for the location ids, and then, location by location,
 * reads the local definitions (OTF2's id mappings) and every event.  Every
 * event callback OTF2 3.0 offers is registered; each one only counts.
 * Nothing is decoded beyond what OTF2 itself does, nothing is stored.
 *
 * Prints one line:
 *
 *   events N seconds S events_per_second R
 *
 * where S is the wall time from opening the archive to closing it.  A
 * location that cannot be read is reported on stderr and skipped (its
 * events up to the failure are counted); the exit status is then 1.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <otf2/otf2.h>

typedef struct counts {
	uint64_t events;
} counts;

typedef struct locations {
	uint64_t *ids;
	size_t len, cap;
} locations;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------------ */
/* Event callbacks: all of them, each only counts.  The record-specific
 * parameters are part of each signature and deliberately unused. */

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"

#define COMMON                                                              \
	OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position, \
		void *user, OTF2_AttributeList *attributes

#define CB0(NAME)                                               \
	static OTF2_CallbackCode on_##NAME(COMMON)              \
	{                                                       \
		((counts *)user)->events++;                     \
		return OTF2_CALLBACK_SUCCESS;                   \
	}

#define CB(NAME, ...)                                              \
	static OTF2_CallbackCode on_##NAME(COMMON, __VA_ARGS__)    \
	{                                                          \
		((counts *)user)->events++;                        \
		return OTF2_CALLBACK_SUCCESS;                      \
	}

CB0(Unknown)
CB(BufferFlush, OTF2_TimeStamp stop)
CB(MeasurementOnOff, OTF2_MeasurementMode mode)
CB(Enter, OTF2_RegionRef region)
CB(Leave, OTF2_RegionRef region)
CB(MpiSend, uint32_t receiver, OTF2_CommRef comm, uint32_t tag,
   uint64_t length)
CB(MpiIsend, uint32_t receiver, OTF2_CommRef comm, uint32_t tag,
   uint64_t length, uint64_t request)
CB(MpiIsendComplete, uint64_t request)
CB(MpiIrecvRequest, uint64_t request)
CB(MpiRecv, uint32_t sender, OTF2_CommRef comm, uint32_t tag,
   uint64_t length)
CB(MpiIrecv, uint32_t sender, OTF2_CommRef comm, uint32_t tag,
   uint64_t length, uint64_t request)
CB(MpiRequestTest, uint64_t request)
CB(MpiRequestCancelled, uint64_t request)
CB0(MpiCollectiveBegin)
CB(MpiCollectiveEnd, OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root,
   uint64_t sent, uint64_t received)
CB(OmpFork, uint32_t threads)
CB0(OmpJoin)
CB(OmpAcquireLock, uint32_t lock, uint32_t order)
CB(OmpReleaseLock, uint32_t lock, uint32_t order)
CB(OmpTaskCreate, uint64_t task)
CB(OmpTaskSwitch, uint64_t task)
CB(OmpTaskComplete, uint64_t task)
CB(Metric, OTF2_MetricRef metric, uint8_t n, const OTF2_Type *types,
   const OTF2_MetricValue *values)
CB(ParameterString, OTF2_ParameterRef parameter, OTF2_StringRef string)
CB(ParameterInt, OTF2_ParameterRef parameter, int64_t value)
CB(ParameterUnsignedInt, OTF2_ParameterRef parameter, uint64_t value)
CB(RmaWinCreate, OTF2_RmaWinRef win)
CB(RmaWinDestroy, OTF2_RmaWinRef win)
CB0(RmaCollectiveBegin)
CB(RmaCollectiveEnd, OTF2_CollectiveOp op, OTF2_RmaSyncLevel level,
   OTF2_RmaWinRef win, uint32_t root, uint64_t sent, uint64_t received)
CB(RmaGroupSync, OTF2_RmaSyncLevel level, OTF2_RmaWinRef win,
   OTF2_GroupRef group)
CB(RmaRequestLock, OTF2_RmaWinRef win, uint32_t remote, uint64_t lock,
   OTF2_LockType type)
CB(RmaAcquireLock, OTF2_RmaWinRef win, uint32_t remote, uint64_t lock,
   OTF2_LockType type)
CB(RmaTryLock, OTF2_RmaWinRef win, uint32_t remote, uint64_t lock,
   OTF2_LockType type)
CB(RmaReleaseLock, OTF2_RmaWinRef win, uint32_t remote, uint64_t lock)
CB(RmaSync, OTF2_RmaWinRef win, uint32_t remote, OTF2_RmaSyncType type)
CB(RmaWaitChange, OTF2_RmaWinRef win)
CB(RmaPut, OTF2_RmaWinRef win, uint32_t remote, uint64_t bytes,
   uint64_t matching)
CB(RmaGet, OTF2_RmaWinRef win, uint32_t remote, uint64_t bytes,
   uint64_t matching)
CB(RmaAtomic, OTF2_RmaWinRef win, uint32_t remote, OTF2_RmaAtomicType type,
   uint64_t sent, uint64_t received, uint64_t matching)
CB(RmaOpCompleteBlocking, OTF2_RmaWinRef win, uint64_t matching)
CB(RmaOpCompleteNonBlocking, OTF2_RmaWinRef win, uint64_t matching)
CB(RmaOpTest, OTF2_RmaWinRef win, uint64_t matching)
CB(RmaOpCompleteRemote, OTF2_RmaWinRef win, uint64_t matching)
CB(ThreadFork, OTF2_Paradigm model, uint32_t threads)
CB(ThreadJoin, OTF2_Paradigm model)
CB(ThreadTeamBegin, OTF2_CommRef team)
CB(ThreadTeamEnd, OTF2_CommRef team)
CB(ThreadAcquireLock, OTF2_Paradigm model, uint32_t lock, uint32_t order)
CB(ThreadReleaseLock, OTF2_Paradigm model, uint32_t lock, uint32_t order)
CB(ThreadTaskCreate, OTF2_CommRef team, uint32_t creator, uint32_t generation)
CB(ThreadTaskSwitch, OTF2_CommRef team, uint32_t creator, uint32_t generation)
CB(ThreadTaskComplete, OTF2_CommRef team, uint32_t creator,
   uint32_t generation)
CB(ThreadCreate, OTF2_CommRef contingent, uint64_t sequence)
CB(ThreadBegin, OTF2_CommRef contingent, uint64_t sequence)
CB(ThreadWait, OTF2_CommRef contingent, uint64_t sequence)
CB(ThreadEnd, OTF2_CommRef contingent, uint64_t sequence)
CB(CallingContextEnter, OTF2_CallingContextRef context, uint32_t unwind)
CB(CallingContextLeave, OTF2_CallingContextRef context)
CB(CallingContextSample, OTF2_CallingContextRef context, uint32_t unwind,
   OTF2_InterruptGeneratorRef generator)
CB(IoCreateHandle, OTF2_IoHandleRef handle, OTF2_IoAccessMode mode,
   OTF2_IoCreationFlag creation, OTF2_IoStatusFlag status)
CB(IoDestroyHandle, OTF2_IoHandleRef handle)
CB(IoDuplicateHandle, OTF2_IoHandleRef old_handle, OTF2_IoHandleRef new_handle,
   OTF2_IoStatusFlag status)
CB(IoSeek, OTF2_IoHandleRef handle, int64_t request, OTF2_IoSeekOption whence,
   uint64_t result)
CB(IoChangeStatusFlags, OTF2_IoHandleRef handle, OTF2_IoStatusFlag status)
CB(IoDeleteFile, OTF2_IoParadigmRef paradigm, OTF2_IoFileRef file)
CB(IoOperationBegin, OTF2_IoHandleRef handle, OTF2_IoOperationMode mode,
   OTF2_IoOperationFlag flags, uint64_t bytes, uint64_t matching)
CB(IoOperationTest, OTF2_IoHandleRef handle, uint64_t matching)
CB(IoOperationIssued, OTF2_IoHandleRef handle, uint64_t matching)
CB(IoOperationComplete, OTF2_IoHandleRef handle, uint64_t bytes,
   uint64_t matching)
CB(IoOperationCancelled, OTF2_IoHandleRef handle, uint64_t matching)
CB(IoAcquireLock, OTF2_IoHandleRef handle, OTF2_LockType type)
CB(IoReleaseLock, OTF2_IoHandleRef handle, OTF2_LockType type)
CB(IoTryLock, OTF2_IoHandleRef handle, OTF2_LockType type)
CB(ProgramBegin, OTF2_StringRef name, uint32_t argc,
   const OTF2_StringRef *argv)
CB(ProgramEnd, int64_t status)
CB(NonBlockingCollectiveRequest, uint64_t request)
CB(NonBlockingCollectiveComplete, OTF2_CollectiveOp op, OTF2_CommRef comm,
   uint32_t root, uint64_t sent, uint64_t received, uint64_t request)
CB(CommCreate, OTF2_CommRef comm)
CB(CommDestroy, OTF2_CommRef comm)

#undef CB
#undef CB0
#undef COMMON
#pragma GCC diagnostic pop

static OTF2_EvtReaderCallbacks *event_callbacks(void)
{
	OTF2_EvtReaderCallbacks *c = OTF2_EvtReaderCallbacks_New();
	if (!c)
		return NULL;
#define SET(NAME) OTF2_EvtReaderCallbacks_Set##NAME##Callback(c, on_##NAME)
	SET(Unknown);
	SET(BufferFlush);
	SET(MeasurementOnOff);
	SET(Enter);
	SET(Leave);
	SET(MpiSend);
	SET(MpiIsend);
	SET(MpiIsendComplete);
	SET(MpiIrecvRequest);
	SET(MpiRecv);
	SET(MpiIrecv);
	SET(MpiRequestTest);
	SET(MpiRequestCancelled);
	SET(MpiCollectiveBegin);
	SET(MpiCollectiveEnd);
	SET(OmpFork);
	SET(OmpJoin);
	SET(OmpAcquireLock);
	SET(OmpReleaseLock);
	SET(OmpTaskCreate);
	SET(OmpTaskSwitch);
	SET(OmpTaskComplete);
	SET(Metric);
	SET(ParameterString);
	SET(ParameterInt);
	SET(ParameterUnsignedInt);
	SET(RmaWinCreate);
	SET(RmaWinDestroy);
	SET(RmaCollectiveBegin);
	SET(RmaCollectiveEnd);
	SET(RmaGroupSync);
	SET(RmaRequestLock);
	SET(RmaAcquireLock);
	SET(RmaTryLock);
	SET(RmaReleaseLock);
	SET(RmaSync);
	SET(RmaWaitChange);
	SET(RmaPut);
	SET(RmaGet);
	SET(RmaAtomic);
	SET(RmaOpCompleteBlocking);
	SET(RmaOpCompleteNonBlocking);
	SET(RmaOpTest);
	SET(RmaOpCompleteRemote);
	SET(ThreadFork);
	SET(ThreadJoin);
	SET(ThreadTeamBegin);
	SET(ThreadTeamEnd);
	SET(ThreadAcquireLock);
	SET(ThreadReleaseLock);
	SET(ThreadTaskCreate);
	SET(ThreadTaskSwitch);
	SET(ThreadTaskComplete);
	SET(ThreadCreate);
	SET(ThreadBegin);
	SET(ThreadWait);
	SET(ThreadEnd);
	SET(CallingContextEnter);
	SET(CallingContextLeave);
	SET(CallingContextSample);
	SET(IoCreateHandle);
	SET(IoDestroyHandle);
	SET(IoDuplicateHandle);
	SET(IoSeek);
	SET(IoChangeStatusFlags);
	SET(IoDeleteFile);
	SET(IoOperationBegin);
	SET(IoOperationTest);
	SET(IoOperationIssued);
	SET(IoOperationComplete);
	SET(IoOperationCancelled);
	SET(IoAcquireLock);
	SET(IoReleaseLock);
	SET(IoTryLock);
	SET(ProgramBegin);
	SET(ProgramEnd);
	SET(NonBlockingCollectiveRequest);
	SET(NonBlockingCollectiveComplete);
	SET(CommCreate);
	SET(CommDestroy);
#undef SET
	return c;
}

/* ------------------------------------------------------------------ */
/* Global definitions: only the location ids are needed. */

static OTF2_CallbackCode on_location(void *user, OTF2_LocationRef self,
				     OTF2_StringRef name,
				     OTF2_LocationType type,
				     uint64_t events,
				     OTF2_LocationGroupRef group)
{
	(void)name;
	(void)type;
	(void)events;
	(void)group;
	locations *l = user;
	if (l->len == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		uint64_t *ids = realloc(l->ids, cap * sizeof *ids);
		if (!ids)
			return OTF2_CALLBACK_INTERRUPT;
		l->ids = ids;
		l->cap = cap;
	}
	l->ids[l->len++] = self;
	return OTF2_CALLBACK_SUCCESS;
}

static int read_locations(OTF2_Reader *rd, locations *l)
{
	OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(rd);
	if (!gdr)
		return -1;
	OTF2_GlobalDefReaderCallbacks *c = OTF2_GlobalDefReaderCallbacks_New();
	if (!c) {
		OTF2_Reader_CloseGlobalDefReader(rd, gdr);
		return -1;
	}
	OTF2_GlobalDefReaderCallbacks_SetLocationCallback(c, on_location);
	OTF2_ErrorCode e = OTF2_Reader_RegisterGlobalDefCallbacks(rd, gdr, c, l);
	uint64_t n = 0;
	if (e == OTF2_SUCCESS)
		e = OTF2_Reader_ReadAllGlobalDefinitions(rd, gdr, &n);
	OTF2_GlobalDefReaderCallbacks_Delete(c);
	OTF2_Reader_CloseGlobalDefReader(rd, gdr);
	return e == OTF2_SUCCESS ? 0 : -1;
}

/* ------------------------------------------------------------------ */

int main(int argc, char **argv)
{
	if (argc != 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fprintf(argc == 2 ? stdout : stderr,
			"usage: %s TRACE\n"
			"Reads every event of the OTF2 archive TRACE with "
			"callbacks that only count;\nprints "
			"`events N seconds S events_per_second R`.\n",
			argv[0]);
		return argc == 2 ? 0 : 2;
	}
	const char *anchor = argv[1];
	int status = 0;
	counts cnt = {0};
	locations locs = {0};

	double t0 = now();
	OTF2_Reader *rd = OTF2_Reader_Open(anchor);
	if (!rd) {
		fprintf(stderr, "%s: cannot open the OTF2 archive\n", anchor);
		return 1;
	}
	if (OTF2_Reader_SetSerialCollectiveCallbacks(rd) != OTF2_SUCCESS ||
	    read_locations(rd, &locs)) {
		fprintf(stderr, "%s: cannot read the global definitions\n",
			anchor);
		OTF2_Reader_Close(rd);
		free(locs.ids);
		return 1;
	}
	OTF2_EvtReaderCallbacks *cb = event_callbacks();
	if (!cb) {
		fprintf(stderr, "out of memory\n");
		OTF2_Reader_Close(rd);
		free(locs.ids);
		return 1;
	}
	for (size_t i = 0; i < locs.len; i++)
		OTF2_Reader_SelectLocation(rd, locs.ids[i]);
	int have_defs = OTF2_Reader_OpenDefFiles(rd) == OTF2_SUCCESS;
	if (OTF2_Reader_OpenEvtFiles(rd) != OTF2_SUCCESS) {
		fprintf(stderr, "%s: cannot open the event files\n", anchor);
		status = 1;
		locs.len = 0;
	}

	for (size_t i = 0; i < locs.len; i++) {
		uint64_t id = locs.ids[i], n = 0;
		/* Local definitions carry the mappings the event reader
		 * applies; a location without a .def file is fine. */
		if (have_defs) {
			OTF2_DefReader *dr = OTF2_Reader_GetDefReader(rd, id);
			if (dr) {
				OTF2_Reader_ReadAllLocalDefinitions(rd, dr, &n);
				OTF2_Reader_CloseDefReader(rd, dr);
			}
		}
		OTF2_EvtReader *er = OTF2_Reader_GetEvtReader(rd, id);
		if (!er) {
			fprintf(stderr, "location %" PRIu64 ": no event reader\n",
				id);
			status = 1;
			continue;
		}
		OTF2_ErrorCode e =
			OTF2_Reader_RegisterEvtCallbacks(rd, er, cb, &cnt);
		n = 0;
		if (e == OTF2_SUCCESS)
			e = OTF2_Reader_ReadAllLocalEvents(rd, er, &n);
		if (e != OTF2_SUCCESS) {
			fprintf(stderr,
				"location %" PRIu64 ": reading stopped after "
				"%" PRIu64 " events: %s\n",
				id, n, OTF2_Error_GetDescription(e));
			status = 1;
		}
		OTF2_Reader_CloseEvtReader(rd, er);
	}

	OTF2_Reader_CloseEvtFiles(rd);
	if (have_defs)
		OTF2_Reader_CloseDefFiles(rd);
	OTF2_Reader_Close(rd);
	double s = now() - t0;

	OTF2_EvtReaderCallbacks_Delete(cb);
	free(locs.ids);
	printf("events %" PRIu64 " seconds %.6f events_per_second %.0f\n",
	       cnt.events, s, s > 0 ? (double)cnt.events / s : 0.0);
	return status;
}
