/* The six _codecs_xx modules.  Each is only a getcodec(name) that hands
   out a _multibytecodec.MultibyteCodec for one of its codecs; the codecs
   themselves live in bytecodecs.c, iso2022.c and hz.c. */

#include "cjkcodecs.h"

/* Which codecs each module offers (CPython's grouping, which the
   encodings package's modules import by name). */
static const char *const jp_names[] = {"shift_jis", "cp932", "euc_jp", "shift_jis_2004",
                                       "euc_jis_2004", "shift_jisx0213", "euc_jisx0213", NULL};
static const char *const cn_names[] = {"gb2312", "gbk", "gb18030", "hz", NULL};
static const char *const kr_names[] = {"euc_kr", "cp949", "johab", NULL};
static const char *const tw_names[] = {"big5", "cp950", NULL};
static const char *const hk_names[] = {"big5hkscs", NULL};
static const char *const iso_names[] = {"iso2022_jp", "iso2022_jp_1", "iso2022_jp_2",
                                        "iso2022_jp_3", "iso2022_jp_2004", "iso2022_jp_ext",
                                        "iso2022_kr", NULL};

static const cjk_codec *
codec_named(const char *name)
{
    if (strcmp(name, "hz") == 0) {
        return &_PyCJK_HzCodec;
    }
    const cjk_codec *lists[] = {_PyCJK_ByteCodecs, _PyCJK_IsoCodecs};
    for (int l = 0; l < 2; l++) {
        for (const cjk_codec *c = lists[l]; c->name != NULL; c++) {
            if (strcmp(c->name, name) == 0) {
                return c;
            }
        }
    }
    return NULL;
}

static PyObject *
getcodec_from(const char *const *names, PyObject *arg)
{
    if (!PyUnicode_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "encoding name must be a string.");
        return NULL;
    }
    const char *name = PyUnicode_AsUTF8(arg);
    if (name == NULL) {
        return NULL;
    }
    for (int i = 0; names[i] != NULL; i++) {
        if (strcmp(names[i], name) == 0) {
            const cjk_codec *codec = codec_named(name);
            if (codec != NULL) {
                return _PyCJK_NewCodecObject(codec);
            }
        }
    }
    PyErr_SetString(PyExc_LookupError, "no such codec is supported.");
    return NULL;
}

#define CODEC_MODULE(SUFFIX, NAMES) \
    static PyObject * \
    getcodec_##SUFFIX(PyObject *module, PyObject *arg) \
    { \
        (void)module; \
        return getcodec_from(NAMES, arg); \
    } \
    static PyMethodDef methods_##SUFFIX[] = { \
        {"getcodec", getcodec_##SUFFIX, METH_O, NULL}, \
        {NULL, NULL, 0, NULL}, \
    }; \
    static struct PyModuleDef module_##SUFFIX = { \
        PyModuleDef_HEAD_INIT, \
        .m_name = "_codecs_" #SUFFIX, \
        .m_size = -1, \
        .m_methods = methods_##SUFFIX, \
    }; \
    PyMODINIT_FUNC \
    PyInit__codecs_##SUFFIX(void) \
    { \
        return PyModule_Create(&module_##SUFFIX); \
    }

CODEC_MODULE(jp, jp_names)
CODEC_MODULE(cn, cn_names)
CODEC_MODULE(kr, kr_names)
CODEC_MODULE(tw, tw_names)
CODEC_MODULE(hk, hk_names)
CODEC_MODULE(iso2022, iso_names)
