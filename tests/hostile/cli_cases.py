"""Hostile inputs against the layoutkit CLI and its conformance runner.

Each case runs `layoutkit ARGS...` and names the exit status it must end
with (1 for a refusal, which must print "error" with a diagnostic on
stderr) and, where there is one, the exact answer or a phrase of the
diagnostic. run_hostile.py runs them under the bounds.
"""

import os
import tempfile

TEMP_FILES = []


def conformance_file(lines):
    f = tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False)
    f.write("\n".join(lines) + "\n")
    f.close()
    TEMP_FILES.append(f.name)
    return f.name


def cases(binary):
    """(class, argv, status, phrase or exact stdout)."""
    return [(cls, [binary] + args, status, want)
            for cls, args, status, want in raw_cases()]


def cleanup():
    for name in TEMP_FILES:
        os.unlink(name)


def planner_layout(reg_bits, lane_bits):
    """{register: [(1), (2), ...], lane: [...]} -> {dim0: 2^32, dim1: 2^32}:
    register bit j -> dim0 bit j, lane bit j -> dim1 bit j."""
    def bases(bits, first):
        return ", ".join("(%d, %d)" % ((1 << j, 0) if first else (0, 1 << j))
                         for j in range(bits))
    return ("{register: [" + bases(reg_bits, True) + "], lane: [" +
            bases(lane_bits, False) + "]} -> {dim0: 4294967296, dim1: 4294967296}")


def raw_cases():
    big_line = '{"op":"size","args":[' + ",".join(['"a"'] * 1000000) + '],"expect":1}'
    return [
        # Class 2: roundings that overflow (used to hang).
        ("hang", ["linear", "pad", "9223372036854775807:1"], 1,
         "integer overflow in the padded extent"),
        ("hang", ["linear", "pad", "4611686018427387905:1"], 1,
         "the power of two >= 4611686018427387905 is 2^63"),
        ("hang", ["linear", "pad", "6917529027641081856:1"], 1,
         "integer overflow in the padded extent"),
        # Class 3: work bounded by elements x replicas.
        ("replicas", ["tile", "show", "S[4:1] + R[1000000:1@warpid]", "4"], 1,
         "4000000 points (4 elements x 1000000 replicas)"),
        ("replicas", ["tile", "show", "S[(64,64):(64,1)] + R[1099511627776:1@warpid]",
                      "(64,64)"], 1, "the limit is 65536 points"),
        ("replicas", ["tile", "holds", "S[4:1] + R[4611686018427387904:1@warpid]",
                      "4", "m=1"], 1, "4611686018427387904 replicas, more than 4194304"),
        ("replicas", ["tile", "holds", "S[4:1] + R[1048576:1@warpid]",
                      "4", "m=1", "--all"], 0, "m=1 holds 1 element: (1)\n"),
        ("replicas", ["tile", "eval", "S[4:1] + R[1099511627776:1@warpid]", "4", "1"], 0,
         "more (--all lists"),
        ("replicas", ["tile", "owners", "S[4:1] + R[1099511627776:1@warpid]", "4", "1", "--all"], 0,
         "more (--all lists at most 65536)"),
        ("replicas", ["conformance", conformance_file([
            '{"op":"tile_eval","args":["S[4:1] + R[1000000000:1@warpid]",[4],1],"expect":[]}'])], 1,
         "the limit is 65536 points"),
        ("replicas", ["plan", "{register: [(1)], lane: [" +
                      ",".join(f"({1 << i})" for i in range(1, 40)) +
                      "]} -> {dim0: 1099511627776}",
                      "{register: [(2)], lane: [(1)," +
                      ",".join(f"({1 << i})" for i in range(2, 40)) +
                      "]} -> {dim0: 1099511627776}", "--dtype", "f16"], 1,
         "lanes per warp; plans are made for at most 64"),
        # The planner's own bound (plan::checkPlanSize): 2^32 registers and
        # 2^32 lanes, 64 input bits, where 1 << 64 used to be read as 1.
        ("replicas", ["plan", planner_layout(32, 32), planner_layout(32, 32),
                      "--dtype", "f16"], 1,
         "SRC has 2^32 registers per thread; plans are made for at most 65536"),
        ("replicas", ["plan", planner_layout(16, 32), planner_layout(16, 32),
                      "--dtype", "f16"], 1,
         "SRC has 2^32 lanes per warp; plans are made for at most 64"),
        # Class 4: 64-bit edges (used to answer wrapped values). An axis of
        # gather or paper reduce is checked as an int64: 2^32 is not axis 0.
        ("edges", ["gather", planner_layout(1, 5), planner_layout(1, 5),
                   "--axis", "4294967296", "--dtype", "f32"], 1,
         "axis 4294967296: expected 0 to 1"),
        ("edges", ["paper", "reduce", planner_layout(1, 5),
                   "--axis", "4294967296"], 1,
         "axis 4294967296: expected 0 to 1"),
        ("replicas", ["paper", "reduce", planner_layout(32, 32),
                      "--axis", "0"], 1,
         "a reduction over 2^32 registers per thread; at most 16384"),
        ("edges", ["swizzle", "3", "4", "-9223372036854775808", "1016"], 1,
         "swizzle parameters out of range"),
        ("edges", ["swizzle", "2", "1", "-9223372036854775807", "7"], 1,
         "swizzle parameters out of range"),
        ("edges", ["swizzle", "3", "5", "-3", "3622"], 0, "3878\n"),
        ("edges", ["linear", "properties", "{register: [(1)]} -> {dim0: 2}",
                   "--order", "(4294967295)"], 1, "order entry 0 is 4294967295"),
        ("edges", ["conformance", conformance_file([
            '{"op":"size","args":[18446744073709551615],"expect":-1}'])], 1,
         "does not fit in 64 signed bits"),
        # Class 5: outputs too large.
        ("output", ["tile", "banks", "S[(1024,1024):(1024,1)]", "(1024,1024)",
                    "--dtype", "b1"], 1, "more than the limit of 65536"),
        # At the limits: drawn, and under 10 MB in every output form.
        ("output", ["show", "(256,256):(100000000000000@0,100000000000000@1)",
                    "--svg", "-"], 0, "<svg"),
        ("output", ["show", "(256,256):(100000000000000@0,100000000000000@3)"], 1,
         "at most 131072 values"),
        ("output", ["tile", "banks", "S[(256,256):(256,1)]", "(256,256)",
                    "--dtype", "b1", "--svg", "-"], 0, "<svg"),
        ("output", ["tile", "show", "S[(16,16):(16,1)] + R[256:1000000000000@warpid]",
                    "(16,16)", "--json"], 0, "warpid"),
        ("output", ["conformance", conformance_file([big_line])], 1,
         "a case has at most 1048576"),
    ]


