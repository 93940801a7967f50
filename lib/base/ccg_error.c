#include "ccg_error.h"

static const struct {
	const char *name;
	const char *text;
} ccg_err_table[CCG__COUNT] = {
	[CCG_OK] = {"CCG_OK", "success"},
	[CCG_ENOMEM] = {"CCG_ENOMEM", "out of memory"},
	[CCG_EINVAL] = {"CCG_EINVAL", "invalid argument"},
	[CCG_ENOENT] = {"CCG_ENOENT", "no such entry"},
	[CCG_ENOTDIR] = {"CCG_ENOTDIR", "not a directory"},
	[CCG_EISDIR] = {"CCG_EISDIR", "is a directory"},
	[CCG_EIO] = {"CCG_EIO", "input/output error"},
	[CCG_EFORMAT] = {"CCG_EFORMAT", "malformed input"},
	[CCG_ERANGE] = {"CCG_ERANGE", "value out of range"},
	[CCG_ENOTSUP] = {"CCG_ENOTSUP", "not supported"},
	[CCG_ESTALE] = {"CCG_ESTALE", "index does not match the trace"},
	[CCG_EINTR] = {"CCG_EINTR", "interrupted"},
};

const char *ccg_err_name(ccg_err err)
{
	if ((unsigned)err >= CCG__COUNT)
		return "CCG_E?";
	return ccg_err_table[err].name;
}

const char *ccg_err_text(ccg_err err)
{
	if ((unsigned)err >= CCG__COUNT)
		return "unknown error";
	return ccg_err_table[err].text;
}
