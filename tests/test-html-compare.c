/*
 * html_compare_write (output/html.c) on two recordings made here: B's
 * pgscan_kswapd runs twice as fast as A's, and each has a mark "go" at a
 * different moment. Aligned at the marks, the reclaim chart holds both
 * series (B dashed), B's line stands twice as high as A's, the two marks
 * fall on one x, each run's points start where its recording does on the
 * elapsed axis; every section holds one chart; the document is
 * well-formed (xmllint, when installed); a write that fails is -EIO;
 * svg_text escapes what a recording's text may hold.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/html.h"
#include "output/svg.h"
#include "ptrec/codec.h"
#include "ptrec/recfile.h"
#include "source/replay.h"
#include "model/sample.h"
#include "tap.h"

#define BASE	1700000000.0
#define N	30

static char dir[] = "/tmp/pagetop-test-html.XXXXXX";

/* A recording of N samples a second apart, pgscan_kswapd rising by rate
 * a second, a mark "go" mark_at seconds in. */
static const char *
write_recording(const char *name, uint64_t rate, double mark_at)
{
	static char path[2][300];
	static int which;
	static uint8_t buf[1 << 20];
	struct sample *s = calloc(1, sizeof(*s)), *prev = calloc(1, sizeof(*prev)), *tmp;
	struct rec_header h;
	struct rec_writer *w;
	char why[300], *p = path[which++ % 2];

	snprintf(p, sizeof(path[0]), "%s/%s.ptrec", dir, name);
	rec_header_init(&h);
	snprintf(h.hostname, sizeof(h.hostname), "%s", name);
	snprintf(h.release, sizeof(h.release), "6.18.0-%s", name);
	h.interval = 1;
	h.start = BASE;
	if (!s || !prev || !(w = rec_writer_open(p, &h, why, sizeof(why)))) {
		printf("Bail out! %s\n", s && prev ? why : "out of memory");
		exit(1);
	}
	for (int k = 0; k < N; k++) {
		ssize_t len;

		memset(s, 0, sizeof(*s));
		for (int src = 0; src < SRC_COUNT; src++)
			s->status[src].err = SRC_NOT_READ;
		s->wall = BASE + k;
		s->mono = 1000 + k;
		s->page_size = 4096;
		s->status[SRC_VMSTAT].err = 0;
		s->vm.n = 1;
		snprintf(s->vm.e[0].name, sizeof(s->vm.e[0].name), "pgscan_kswapd");
		s->vm.e[0].value = 1000 + rate * (uint64_t)k;
		s->status[SRC_BUDDYINFO].err = 0;
		s->buddy.n_orders = 11;
		s->buddy.n_zones = 1;
		snprintf(s->buddy.zones[0].zone, NAME_LEN, "Normal");
		for (int o = 0; o < 11; o++)
			s->buddy.zones[0].free[o] = (uint64_t)(100 >> (o / 2)) + (uint64_t)k;
		len = codec_encode(s, k ? prev : NULL, buf, sizeof(buf));
		if (len < 0 || rec_writer_sample(w, s->wall, k == 0, buf, (size_t)len) < 0) {
			printf("Bail out! sample %d not written\n", k);
			exit(1);
		}
		if (k == (int)mark_at)
			rec_writer_mark(w, BASE + mark_at + 0.5, "go <now>");
		tmp = prev;
		prev = s;
		s = tmp;
	}
	if (rec_writer_close(w, why, sizeof(why)) < 0) {
		printf("Bail out! %s\n", why);
		exit(1);
	}
	free(s);
	free(prev);
	return p;
}

static size_t
count(const char *s, const char *what)
{
	size_t n = 0;

	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/* The path after the series titled title in section: its points' x and
 * y into xs and ys; how many. */
static int
points(const char *section, const char *title, double *xs, double *ys, int max, bool *dashed)
{
	char key[100];
	const char *p = strstr(section, (snprintf(key, sizeof(key), "<title>%s</title>", title), key));
	const char *d, *end;
	int n = 0;

	if (!p || !(d = strstr(p, "<path ")) || !(end = strstr(d, "/>")))
		return 0;
	*dashed = memmem(d, (size_t)(end - d), "dasharray", 9) != NULL;
	if (!(d = strstr(d, " d=\"")))
		return 0;
	d += 4;
	while (n < max && *d != '"') {
		char *e;

		while (*d == 'M' || *d == 'L' || *d == ' ')
			d++;
		xs[n] = strtod(d, &e);
		if (*e != ',')
			break;
		ys[n++] = strtod(e + 1, &e);
		d = e;
	}
	return n;
}

/* The x1 of each mark line from s to end. */
static int
mark_xs(const char *s, const char *end, double *xs, int max)
{
	int n = 0;

	for (const char *p = s; n < max && (p = strstr(p, "<g class=\"mark\">")) && p < end; p++) {
		const char *l = strstr(p, "<line x1=\"");

		if (!l)
			break;
		xs[n++] = strtod(l + 10, NULL);
	}
	return n;
}

/* svg_text of s cut at max, as a string (static). */
static const char *
escaped(const char *s, size_t max)
{
	static char out[200];
	FILE *f = fmemopen(out, sizeof(out), "w");

	if (!f)
		return "";
	svg_text(f, s, max);
	fclose(f);
	return out;
}

int
main(void)
{
	struct feed *fa, *fb;
	struct html_run a, b;
	char why[300], file[400], cmd[500];
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	const char *pa, *pb, *rec, *end;
	double ax[400], ay[400], bx[400], by[400], mx[8];
	int na, nb, nm, st;
	bool ad = true, bd = false, same_a = true, same_b = true;

	setenv("TZ", "UTC", 1);
	if (!mkdtemp(dir)) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	/* Text from a recording: markup, controls, a raw C1 byte and a
	 * UTF-8 C1 control never reach the document as they are. */
	tap_eq_str(escaped("a\x01" "b\xff<c>&\"'\xc2\x85\xc3\xa9", 0),
		   "a\\x01b\\xff&lt;c&gt;&amp;&quot;&#39;\\u0085\xc3\xa9",
		   "svg_text escapes markup, controls and bytes that are not UTF-8");
	tap_eq_str(escaped("h\xc3\xa9llo", 2), "h...", "svg_text cuts before a character "
		   "that does not fit");
	pa = write_recording("alpha", 100, 10);
	pb = write_recording("beta", 200, 20);
	if (!(fa = replay_feed_open(pa, why, sizeof(why))) ||
	    !(fb = replay_feed_open(pb, why, sizeof(why)))) {
		printf("Bail out! %s\n", why);
		return 1;
	}
	a = (struct html_run){ .f = fa, .from = 0, .to = N - 1, .align = BASE + 10.5,
			       .name = "alpha.ptrec" };
	b = (struct html_run){ .f = fb, .from = 0, .to = N - 1, .align = BASE + 20.5,
			       .name = "beta.ptrec" };
	f = open_memstream(&text, &len);
	st = html_compare_write(f, &a, &b);
	fclose(f);
	tap_eq_int(st, 0, "html_compare_write returns 0");
	tap_eq_int(a.lost + b.lost, 0, "every sample read");
	tap_ok(count(text, "<section ") == count(text, "<svg ") && count(text, "<svg ") >= 3,
	       "one chart per section (%zu sections, %zu svg)", count(text, "<section "),
	       count(text, "<svg "));
	tap_ok(strstr(text, "<b>A</b> alpha.ptrec") && strstr(text, "<b>B</b> beta.ptrec"),
	       "both runs named");
	tap_ok(!strstr(text, "<now>") && strstr(text, "go &lt;now&gt;"), "the mark's text escaped");

	rec = strstr(text, "<section id=\"p1-reclaim\">");
	end = rec ? strstr(rec, "</section>") : NULL;
	tap_ok(rec && end, "a reclaim section");
	if (!rec || !end) {
		rec = text;
		end = text + len;
	}
	na = points(rec, "A: pgscan_kswapd", ax, ay, 400, &ad);
	nb = points(rec, "B: pgscan_kswapd", bx, by, 400, &bd);
	tap_eq_int(na, N - 1, "A's series: a point per interval");
	tap_eq_int(nb, N - 1, "B's series: a point per interval");
	tap_ok(!ad && bd, "A solid, B dashed");
	for (int i = 1; i < na; i++)
		same_a = same_a && fabs(ay[i] - ay[0]) < 0.05;
	for (int i = 1; i < nb; i++)
		same_b = same_b && fabs(by[i] - by[0]) < 0.05;
	tap_ok(same_a && same_b, "each rate is steady");
	/* The plot's bottom is y 216 (svg.c: top 16, 200 high). */
	if (!tap_ok(na && nb && fabs((216 - by[0]) / (216 - ay[0]) - 2) < 0.01,
		    "B's line twice as high as A's: the counter ran twice as fast"))
		printf("#   A at y %.1f, B at y %.1f\n", na ? ay[0] : NAN, nb ? by[0] : NAN);
	/* Aligned at the marks: B began 10 s earlier on the elapsed axis. */
	tap_ok(na && nb && bx[0] < ax[0] && bx[nb - 1] < ax[na - 1],
	       "B's points start and end before A's (B's mark came 10 s later in it)");
	tap_ok(na && nb && fabs((ax[0] - bx[0]) - (bx[10] - bx[0])) < 0.5,
	       "by the 10 s between the marks");
	nm = mark_xs(rec, end, mx, 8);
	tap_eq_int(nm, 2, "both marks drawn in the chart");
	tap_ok(nm == 2 && fabs(mx[0] - mx[1]) < 0.05, "at the same x: the runs aligned there");

	/* Well-formed, as a browser and an XML parser take it. */
	snprintf(file, sizeof(file), "%s/cmp.html", dir);
	f = fopen(file, "w");
	if (f) {
		fwrite(text, 1, len, f);
		fclose(f);
	}
	if (system("command -v xmllint >/dev/null 2>&1") == 0) {
		snprintf(cmd, sizeof(cmd), "xmllint --noout %s", file);
		tap_ok(system(cmd) == 0, "well-formed XML (xmllint)");
	} else {
		tap_ok(1, "well-formed XML # SKIP no xmllint");
	}
	free(text);

	f = fopen("/dev/full", "w");
	if (f) {
		tap_eq_int(html_compare_write(f, &a, &b), -EIO, "a write that fails: -EIO");
		fclose(f);
	}
	feed_close(fa);
	feed_close(fb);
	unlink(file);
	unlink(pa);
	unlink(pb);
	rmdir(dir);
	return tap_done();
}
