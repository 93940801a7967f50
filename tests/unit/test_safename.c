/* Path-safe names: the escaping rule, the length limit, uniqueness of
 * shortened names, and never cutting a UTF-8 sequence. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "ccg_safename.h"

static void expect(const char *in, const char *want)
{
	ccg_buf b = CCG_BUF_INIT;
	assert_int_equal(ccg_safename_make(&b, in, 255), CCG_OK);
	assert_string_equal(b.data, want);
	ccg_buf_free(&b);
}

static void test_escapes(void **state)
{
	(void)state;
	expect("main", "main");
	expect("a/b", "a%2Fb");
	expect("x y", "x_y");
	expect("100%", "100%25");
	expect("a#1", "a%231");
	expect("tab\there", "tab%09here");
	expect("nl\n", "nl%0A");
	expect("", "_");
	expect(".", "%2E");
	expect("..", "%2E%2E");
	expect("...", "...");
	expect("\xc3\xa9t\xc3\xa9", "\xc3\xa9t\xc3\xa9");
}

/* Valid UTF-8, as far as sequence boundaries go. */
static int utf8_ok(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
		if (i + len > n)
			return 0;
		for (size_t k = 1; k < len; k++)
			if (((unsigned char)s[i + k] & 0xC0) != 0x80)
				return 0;
		i += len;
	}
	return 1;
}

static void test_long(void **state)
{
	(void)state;
	char a[1100], b[1100];
	memset(a, 'x', 1000);
	a[1000] = '\0';
	memcpy(b, a, 1001);
	b[999] = 'y';
	ccg_buf x = CCG_BUF_INIT, y = CCG_BUF_INIT;
	assert_int_equal(ccg_safename_make(&x, a, 255), CCG_OK);
	assert_int_equal(ccg_safename_make(&y, b, 255), CCG_OK);
	assert_true(x.len <= 255);
	assert_true(y.len <= 255);
	assert_string_not_equal(x.data, y.data);
	assert_int_equal(x.data[x.len - CCG_SAFENAME_HASH_LEN], '#');
	/* A name that fits is not shortened. */
	ccg_buf z = CCG_BUF_INIT;
	a[255] = '\0';
	assert_int_equal(ccg_safename_make(&z, a, 255), CCG_OK);
	assert_int_equal(z.len, 255);
	assert_null(strchr(z.data, '#'));
	ccg_buf_free(&x);
	ccg_buf_free(&y);
	ccg_buf_free(&z);
}

static void test_no_cut_inside(void **state)
{
	(void)state;
	/* 2-byte characters and escapes around the cut point. */
	for (int shift = 0; shift < 4; shift++) {
		char in[700];
		size_t n = 0;
		for (int i = 0; i < shift; i++)
			in[n++] = 'a';
		for (int i = 0; i < 150; i++) {
			in[n++] = (char)0xc3;
			in[n++] = (char)0xa9;
			in[n++] = '/';
		}
		in[n] = '\0';
		ccg_buf b = CCG_BUF_INIT;
		assert_int_equal(ccg_safename_make(&b, in, 100), CCG_OK);
		assert_true(b.len <= 100);
		size_t body = b.len - CCG_SAFENAME_HASH_LEN;
		assert_true(utf8_ok(b.data, body));
		/* No partial %XX before the suffix. */
		for (size_t i = 0; i < body; i++)
			if (b.data[i] == '%')
				assert_true(i + 2 < body);
		ccg_buf_free(&b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_long),
		cmocka_unit_test(test_no_cut_inside),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
