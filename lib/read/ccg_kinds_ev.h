/*
 * ccg_kinds_ev.h - the list of OTF2 event kinds (see ccg_kinds.h).
 */
#ifndef CCG_KINDS_EV_H
#define CCG_KINDS_EV_H

#define CCG_EVENTS(X) \
	X(UNKNOWN, Unknown, "UNKNOWN", -1, 0, ) \
	X(BUFFER_FLUSH, BufferFlush, "BUFFER_FLUSH", -1, 0, \
	   (OTF2_TimeStamp, stop, U)) \
	X(MEASUREMENT_ON_OFF, MeasurementOnOff, "MEASUREMENT_ON_OFF", -1, 0, \
	   (OTF2_MeasurementMode, mode, ENUM)) \
	X(ENTER, Enter, "ENTER", 0, region, \
	   (OTF2_RegionRef, region, REF_REGION)) \
	X(LEAVE, Leave, "LEAVE", 0, region, \
	   (OTF2_RegionRef, region, REF_REGION)) \
	X(MPI_SEND, MpiSend, "MPI_SEND", 1, 0, (uint32_t, receiver, U) \
	   (OTF2_CommRef, comm, REF_COMM) (uint32_t, tag, U) \
	   (uint64_t, length, U)) \
	X(MPI_ISEND, MpiIsend, "MPI_ISEND", 1, 0, (uint32_t, receiver, U) \
	   (OTF2_CommRef, comm, REF_COMM) (uint32_t, tag, U) \
	   (uint64_t, length, U) (uint64_t, request, U)) \
	X(MPI_ISEND_COMPLETE, MpiIsendComplete, "MPI_ISEND_COMPLETE", -1, 0, \
	   (uint64_t, request, U)) \
	X(MPI_IRECV_REQUEST, MpiIrecvRequest, "MPI_IRECV_REQUEST", -1, 0, \
	   (uint64_t, request, U)) \
	X(MPI_RECV, MpiRecv, "MPI_RECV", 1, 0, (uint32_t, sender, U) \
	   (OTF2_CommRef, comm, REF_COMM) (uint32_t, tag, U) \
	   (uint64_t, length, U)) \
	X(MPI_IRECV, MpiIrecv, "MPI_IRECV", 1, 0, (uint32_t, sender, U) \
	   (OTF2_CommRef, comm, REF_COMM) (uint32_t, tag, U) \
	   (uint64_t, length, U) (uint64_t, request, U)) \
	X(MPI_REQUEST_TEST, MpiRequestTest, "MPI_REQUEST_TEST", -1, 0, \
	   (uint64_t, request, U)) \
	X(MPI_REQUEST_CANCELLED, MpiRequestCancelled, \
	  "MPI_REQUEST_CANCELLED", -1, 0, \
	   (uint64_t, request, U)) \
	X(MPI_COLLECTIVE_BEGIN, MpiCollectiveBegin, \
	  "MPI_COLLECTIVE_BEGIN", -1, 0, ) \
	X(MPI_COLLECTIVE_END, MpiCollectiveEnd, "MPI_COLLECTIVE_END", 1, 0, \
	   (OTF2_CollectiveOp, op, ENUM) (OTF2_CommRef, comm, REF_COMM) \
	   (uint32_t, root, U) (uint64_t, sent, U) (uint64_t, received, U)) \
	X(OMP_FORK, OmpFork, "OMP_FORK", -1, 0, (uint32_t, threads, U)) \
	X(OMP_JOIN, OmpJoin, "OMP_JOIN", -1, 0, ) \
	X(OMP_ACQUIRE_LOCK, OmpAcquireLock, "OMP_ACQUIRE_LOCK", -1, 0, \
	   (uint32_t, lock, U) (uint32_t, order, U)) \
	X(OMP_RELEASE_LOCK, OmpReleaseLock, "OMP_RELEASE_LOCK", -1, 0, \
	   (uint32_t, lock, U) (uint32_t, order, U)) \
	X(OMP_TASK_CREATE, OmpTaskCreate, "OMP_TASK_CREATE", -1, 0, \
	   (uint64_t, task, U)) \
	X(OMP_TASK_SWITCH, OmpTaskSwitch, "OMP_TASK_SWITCH", -1, 0, \
	   (uint64_t, task, U)) \
	X(OMP_TASK_COMPLETE, OmpTaskComplete, "OMP_TASK_COMPLETE", -1, 0, \
	   (uint64_t, task, U)) \
	X(PARAMETER_STRING, ParameterString, "PARAMETER_STRING", 0, 0, \
	   (OTF2_ParameterRef, parameter, REF_PARAM) \
	   (OTF2_StringRef, value, REF_STRING)) \
	X(PARAMETER_INT, ParameterInt, "PARAMETER_INT64", 0, 0, \
	   (OTF2_ParameterRef, parameter, REF_PARAM) (int64_t, value, I)) \
	X(PARAMETER_UNSIGNED_INT, ParameterUnsignedInt, \
	  "PARAMETER_UINT64", 0, 0, \
	   (OTF2_ParameterRef, parameter, REF_PARAM) (uint64_t, value, U)) \
	X(RMA_WIN_CREATE, RmaWinCreate, "RMA_WIN_CREATE", 0, 0, \
	   (OTF2_RmaWinRef, win, REF_RMAWIN)) \
	X(RMA_WIN_DESTROY, RmaWinDestroy, "RMA_WIN_DESTROY", 0, 0, \
	   (OTF2_RmaWinRef, win, REF_RMAWIN)) \
	X(RMA_COLLECTIVE_BEGIN, RmaCollectiveBegin, \
	  "RMA_COLLECTIVE_BEGIN", -1, 0, ) \
	X(RMA_COLLECTIVE_END, RmaCollectiveEnd, "RMA_COLLECTIVE_END", 2, 0, \
	   (OTF2_CollectiveOp, op, ENUM) (OTF2_RmaSyncLevel, level, ENUM) \
	   (OTF2_RmaWinRef, win, REF_RMAWIN) (uint32_t, root, U) \
	   (uint64_t, sent, U) (uint64_t, received, U)) \
	X(RMA_GROUP_SYNC, RmaGroupSync, "RMA_GROUP_SYNC", 1, 0, \
	   (OTF2_RmaSyncLevel, level, ENUM) \
	   (OTF2_RmaWinRef, win, REF_RMAWIN) \
	   (OTF2_GroupRef, group, REF_GROUP)) \
	X(RMA_REQUEST_LOCK, RmaRequestLock, "RMA_REQUEST_LOCK", 0, 0, \
	   (OTF2_RmaWinRef, win, REF_RMAWIN) (uint32_t, remote, U) \
	   (uint64_t, lock, U) (OTF2_LockType, type, ENUM)) \
	X(RMA_ACQUIRE_LOCK, RmaAcquireLock, "RMA_ACQUIRE_LOCK", 0, 0, \
	   (OTF2_RmaWinRef, win, REF_RMAWIN) (uint32_t, remote, U) \
	   (uint64_t, lock, U) (OTF2_LockType, type, ENUM)) \
	X(RMA_TRY_LOCK, RmaTryLock, "RMA_TRY_LOCK", 0, 0, \
	   (OTF2_RmaWinRef, win, REF_RMAWIN) (uint32_t, remote, U) \
	   (uint64_t, lock, U) (OTF2_LockType, type, ENUM)) \
	X(RMA_RELEASE_LOCK, RmaReleaseLock, "RMA_RELEASE_LOCK", 0, 0, \
	   (OTF2_RmaWinRef, win, REF_RMAWIN) (uint32_t, remote, U) \
	   (uint64_t, lock, U)) \
	X(RMA_SYNC, RmaSync, "RMA_SYNC", 0, 0, \
	   (OTF2_RmaWinRef, win, REF_RMAWIN) (uint32_t, remote, U) \
	   (OTF2_RmaSyncType, sync, ENUM)) \
	X(RMA_WAIT_CHANGE, RmaWaitChange, "RMA_WAIT_CHANGE", 0, 0, \
	   (OTF2_RmaWinRef, win, REF_RMAWIN)) \
	X(RMA_PUT, RmaPut, "RMA_PUT", 0, 0, \
	   (OTF2_RmaWinRef, win, REF_RMAWIN) (uint32_t, remote, U) \
	   (uint64_t, bytes, U) (uint64_t, matching, U)) \
	X(RMA_GET, RmaGet, "RMA_GET", 0, 0, \
	   (OTF2_RmaWinRef, win, REF_RMAWIN) (uint32_t, remote, U) \
	   (uint64_t, bytes, U) (uint64_t, matching, U)) \
	X(RMA_ATOMIC, RmaAtomic, "RMA_ATOMIC", 0, 0, \
	   (OTF2_RmaWinRef, win, REF_RMAWIN) (uint32_t, remote, U) \
	   (OTF2_RmaAtomicType, type, ENUM) (uint64_t, sent, U) \
	   (uint64_t, received, U) (uint64_t, matching, U)) \
	X(RMA_OP_COMPLETE_BLOCKING, RmaOpCompleteBlocking, \
	  "RMA_OP_COMPLETE_BLOCKING", 0, 0, \
	   (OTF2_RmaWinRef, win, REF_RMAWIN) (uint64_t, matching, U)) \
	X(RMA_OP_COMPLETE_NON_BLOCKING, RmaOpCompleteNonBlocking, \
	  "RMA_OP_COMPLETE_NON_BLOCKING", 0, 0, \
	   (OTF2_RmaWinRef, win, REF_RMAWIN) (uint64_t, matching, U)) \
	X(RMA_OP_TEST, RmaOpTest, "RMA_OP_TEST", 0, 0, \
	   (OTF2_RmaWinRef, win, REF_RMAWIN) (uint64_t, matching, U)) \
	X(RMA_OP_COMPLETE_REMOTE, RmaOpCompleteRemote, \
	  "RMA_OP_COMPLETE_REMOTE", 0, 0, \
	   (OTF2_RmaWinRef, win, REF_RMAWIN) (uint64_t, matching, U)) \
	X(THREAD_FORK, ThreadFork, "THREAD_FORK", -1, 0, \
	   (OTF2_Paradigm, model, REF_PARADIGM) (uint32_t, threads, U)) \
	X(THREAD_JOIN, ThreadJoin, "THREAD_JOIN", -1, 0, \
	   (OTF2_Paradigm, model, REF_PARADIGM)) \
	X(THREAD_TEAM_BEGIN, ThreadTeamBegin, "THREAD_TEAM_BEGIN", 0, 0, \
	   (OTF2_CommRef, team, REF_COMM)) \
	X(THREAD_TEAM_END, ThreadTeamEnd, "THREAD_TEAM_END", 0, 0, \
	   (OTF2_CommRef, team, REF_COMM)) \
	X(THREAD_ACQUIRE_LOCK, ThreadAcquireLock, \
	  "THREAD_ACQUIRE_LOCK", -1, 0, \
	   (OTF2_Paradigm, model, REF_PARADIGM) (uint32_t, lock, U) \
	   (uint32_t, order, U)) \
	X(THREAD_RELEASE_LOCK, ThreadReleaseLock, \
	  "THREAD_RELEASE_LOCK", -1, 0, \
	   (OTF2_Paradigm, model, REF_PARADIGM) (uint32_t, lock, U) \
	   (uint32_t, order, U)) \
	X(THREAD_TASK_CREATE, ThreadTaskCreate, "THREAD_TASK_CREATE", 0, 0, \
	   (OTF2_CommRef, team, REF_COMM) (uint32_t, creator, U) \
	   (uint32_t, generation, U)) \
	X(THREAD_TASK_SWITCH, ThreadTaskSwitch, "THREAD_TASK_SWITCH", 0, 0, \
	   (OTF2_CommRef, team, REF_COMM) (uint32_t, creator, U) \
	   (uint32_t, generation, U)) \
	X(THREAD_TASK_COMPLETE, ThreadTaskComplete, \
	  "THREAD_TASK_COMPLETE", 0, 0, \
	   (OTF2_CommRef, team, REF_COMM) (uint32_t, creator, U) \
	   (uint32_t, generation, U)) \
	X(THREAD_CREATE, ThreadCreate, "THREAD_CREATE", 0, 0, \
	   (OTF2_CommRef, contingent, REF_COMM) (uint64_t, sequence, U)) \
	X(THREAD_BEGIN, ThreadBegin, "THREAD_BEGIN", 0, 0, \
	   (OTF2_CommRef, contingent, REF_COMM) (uint64_t, sequence, U)) \
	X(THREAD_WAIT, ThreadWait, "THREAD_WAIT", 0, 0, \
	   (OTF2_CommRef, contingent, REF_COMM) (uint64_t, sequence, U)) \
	X(THREAD_END, ThreadEnd, "THREAD_END", 0, 0, \
	   (OTF2_CommRef, contingent, REF_COMM) (uint64_t, sequence, U)) \
	X(CALLING_CONTEXT_ENTER, CallingContextEnter, \
	  "CALLING_CONTEXT_ENTER", 0, context, \
	   (OTF2_CallingContextRef, context, REF_CCTX) (uint32_t, unwind, U)) \
	X(CALLING_CONTEXT_LEAVE, CallingContextLeave, \
	  "CALLING_CONTEXT_LEAVE", 0, context, \
	   (OTF2_CallingContextRef, context, REF_CCTX)) \
	X(CALLING_CONTEXT_SAMPLE, CallingContextSample, \
	  "CALLING_CONTEXT_SAMPLE", 0, 0, \
	   (OTF2_CallingContextRef, context, REF_CCTX) (uint32_t, unwind, U) \
	   (OTF2_InterruptGeneratorRef, generator, REF_INTGEN)) \
	X(IO_CREATE_HANDLE, IoCreateHandle, "IO_CREATE_HANDLE", 0, 0, \
	   (OTF2_IoHandleRef, handle, REF_IOHANDLE) \
	   (OTF2_IoAccessMode, mode, ENUM) \
	   (OTF2_IoCreationFlag, creation, ENUM) \
	   (OTF2_IoStatusFlag, status, ENUM)) \
	X(IO_DESTROY_HANDLE, IoDestroyHandle, "IO_DESTROY_HANDLE", 0, 0, \
	   (OTF2_IoHandleRef, handle, REF_IOHANDLE)) \
	X(IO_DUPLICATE_HANDLE, IoDuplicateHandle, "IO_DUPLICATE_HANDLE", 0, 0, \
	   (OTF2_IoHandleRef, old, REF_IOHANDLE) \
	   (OTF2_IoHandleRef, new, REF_IOHANDLE) \
	   (OTF2_IoStatusFlag, status, ENUM)) \
	X(IO_SEEK, IoSeek, "IO_SEEK", 0, 0, \
	   (OTF2_IoHandleRef, handle, REF_IOHANDLE) (int64_t, offset, I) \
	   (OTF2_IoSeekOption, whence, ENUM) (uint64_t, result, U)) \
	X(IO_CHANGE_STATUS_FLAGS, IoChangeStatusFlags, \
	  "IO_CHANGE_FLAGS", 0, 0, \
	   (OTF2_IoHandleRef, handle, REF_IOHANDLE) \
	   (OTF2_IoStatusFlag, status, ENUM)) \
	X(IO_DELETE_FILE, IoDeleteFile, "IO_DELETE_FILE", 1, 0, \
	   (OTF2_IoParadigmRef, paradigm, REF_IOPARADIGM) \
	   (OTF2_IoFileRef, file, REF_IOFILE)) \
	X(IO_OPERATION_BEGIN, IoOperationBegin, "IO_OPERATION_BEGIN", 0, 0, \
	   (OTF2_IoHandleRef, handle, REF_IOHANDLE) \
	   (OTF2_IoOperationMode, mode, ENUM) \
	   (OTF2_IoOperationFlag, flags, ENUM) (uint64_t, bytes, U) \
	   (uint64_t, matching, U)) \
	X(IO_OPERATION_TEST, IoOperationTest, "IO_OPERATION_TEST", 0, 0, \
	   (OTF2_IoHandleRef, handle, REF_IOHANDLE) (uint64_t, matching, U)) \
	X(IO_OPERATION_ISSUED, IoOperationIssued, "IO_OPERATION_ISSUED", 0, 0, \
	   (OTF2_IoHandleRef, handle, REF_IOHANDLE) (uint64_t, matching, U)) \
	X(IO_OPERATION_COMPLETE, IoOperationComplete, \
	  "IO_OPERATION_COMPLETE", 0, 0, \
	   (OTF2_IoHandleRef, handle, REF_IOHANDLE) (uint64_t, bytes, U) \
	   (uint64_t, matching, U)) \
	X(IO_OPERATION_CANCELLED, IoOperationCancelled, \
	  "IO_OPERATION_CANCELLED", 0, 0, \
	   (OTF2_IoHandleRef, handle, REF_IOHANDLE) (uint64_t, matching, U)) \
	X(IO_ACQUIRE_LOCK, IoAcquireLock, "IO_ACQUIRE_LOCK", 0, 0, \
	   (OTF2_IoHandleRef, handle, REF_IOHANDLE) \
	   (OTF2_LockType, type, ENUM)) \
	X(IO_RELEASE_LOCK, IoReleaseLock, "IO_RELEASE_LOCK", 0, 0, \
	   (OTF2_IoHandleRef, handle, REF_IOHANDLE) \
	   (OTF2_LockType, type, ENUM)) \
	X(IO_TRY_LOCK, IoTryLock, "IO_TRY_LOCK", 0, 0, \
	   (OTF2_IoHandleRef, handle, REF_IOHANDLE) \
	   (OTF2_LockType, type, ENUM)) \
	X(PROGRAM_END, ProgramEnd, "PROGRAM_END", -1, 0, \
	   (int64_t, status, I)) \
	X(NON_BLOCKING_COLLECTIVE_REQUEST, NonBlockingCollectiveRequest, \
	  "NON_BLOCKING_COLLECTIVE_REQUEST", -1, 0, \
	   (uint64_t, request, U)) \
	X(NON_BLOCKING_COLLECTIVE_COMPLETE, NonBlockingCollectiveComplete, \
	  "NON_BLOCKING_COLLECTIVE_COMPLETE", 1, 0, \
	   (OTF2_CollectiveOp, op, ENUM) (OTF2_CommRef, comm, REF_COMM) \
	   (uint32_t, root, U) (uint64_t, sent, U) (uint64_t, received, U) \
	   (uint64_t, request, U)) \
	X(COMM_CREATE, CommCreate, "COMM_CREATE", 0, 0, \
	   (OTF2_CommRef, comm, REF_COMM)) \
	X(COMM_DESTROY, CommDestroy, "COMM_DESTROY", 0, 0, \
	   (OTF2_CommRef, comm, REF_COMM))

#define CCG_EVENTS_BY_HAND(X) \
	X(METRIC, Metric, "METRIC", 0, F("metric", REF_METRIC), \
	   F("values", METRICS)) \
	X(PROGRAM_BEGIN, ProgramBegin, "PROGRAM_BEGIN", 0, \
	   F("name", REF_STRING), F("args", ARR_STRING))

#endif
