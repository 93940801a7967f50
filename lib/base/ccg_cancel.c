#include "ccg_cancel.h"

#include <stddef.h>

__thread ccg_cancel ccg_cancel_cur;

void ccg_cancel_push(ccg_cancel_fn fn, void *arg, ccg_cancel *saved)
{
	*saved = ccg_cancel_cur;
	ccg_cancel_cur = (ccg_cancel){fn, arg, 0, 0};
}

void ccg_cancel_pop(const ccg_cancel *saved)
{
	ccg_cancel_cur = *saved;
}

ccg_err ccg_cancel_ask(void)
{
	ccg_cancel *c = &ccg_cancel_cur;
	c->polls = 0;
	if (!c->hit && c->fn && c->fn(c->arg))
		c->hit = 1;
	return c->hit ? CCG_EINTR : CCG_OK;
}
