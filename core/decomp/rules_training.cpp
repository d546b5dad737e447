// Training IR -> Core ATen: the CompositeImplicitAutograd kernels and the Python decompositions
// that ExportedProgram.run_decompositions() applies with the default table.

#include "core/decomp/rules_common.h"
#include "core/ops/op_registry.h"

#include <cmath>

namespace irlens::core::rules {

Result<std::string> reshapeTo(RewriteBuilder& b, const std::string& x, const std::vector<SymInt>& sizes) {
    const TensorMeta* m = b.meta(x);
    if (!m) return b.args().error("", "no meta for '" + x + "'");
    if (meta::viewStrides(*m, sizes)) return b.call(atenTarget("view"), {arg::tensor("self", x), b.sizes("size", sizes)});
    IRLENS_ASSIGN_OR_RETURN(c, b.call(atenTarget("clone"), {arg::tensor("self", x), arg::kw(arg::memoryFormat("memory_format", MemoryFormat::Contiguous))}));
    return b.call(atenTarget("view"), {arg::tensor("self", c), b.sizes("size", sizes)});
}

namespace {

std::vector<SymInt> sizesOf(const RewriteBuilder& b, const std::string& v) {
    const TensorMeta* m = b.meta(v);
    return m ? m->sizes : std::vector<SymInt>{};
}

Status linear(RewriteBuilder& b) {
    IRLENS_ASSIGN_OR_RETURN(x, input(b, "input"));
    IRLENS_ASSIGN_OR_RETURN(w, input(b, "weight"));
    std::string bias = b.args().tensorName("bias");
    const TensorMeta* xm = b.meta(x);
    const TensorMeta* bm = bias.empty() ? nullptr : b.meta(bias);
    int64_t rank = rankOf(b, x);
    if (rank == 2 && bm) {
        IRLENS_ASSIGN_OR_RETURN(wt, b.call(atenTarget("t"), {arg::tensor("self", w)}));
        IRLENS_ASSIGN_OR_RETURN(out, b.call(atenTarget("addmm"), {arg::tensor("self", bias), arg::tensor("mat1", x), arg::tensor("mat2", wt)}));
        b.replaceOutput(0, out);
        return Status::ok();
    }
    if (bm && rank >= 3 && meta::isContiguous(*xm) && (rank == 3 || bm->sizes.size() == 1)) {
        // _flatten_nd_linear: fold the leading dims, addmm, view back.
        SymInt lead = SymInt::literal(1);
        for (int64_t i = 0; i + 1 < rank; ++i) lead = meta::mulSym(lead, xm->sizes[i]);
        IRLENS_ASSIGN_OR_RETURN(flat, reshapeTo(b, x, {lead, xm->sizes.back()}));
        IRLENS_ASSIGN_OR_RETURN(wt, b.call(atenTarget("t"), {arg::tensor("self", w)}));
        IRLENS_ASSIGN_OR_RETURN(mm, b.call(atenTarget("addmm"), {arg::tensor("self", bias), arg::tensor("mat1", flat), arg::tensor("mat2", wt)}));
        std::vector<SymInt> shape(xm->sizes.begin(), xm->sizes.end() - 1);
        shape.push_back(sizesOf(b, mm)[1]);
        IRLENS_ASSIGN_OR_RETURN(out, b.call(atenTarget("view"), {arg::tensor("self", mm), b.sizes("size", shape)}));
        b.replaceOutput(0, out);
        return Status::ok();
    }
    IRLENS_ASSIGN_OR_RETURN(wt, b.call(atenTarget("t"), {arg::tensor("self", w)}));
    IRLENS_ASSIGN_OR_RETURN(mm, b.call(atenTarget("matmul"), {arg::tensor("self", x), arg::tensor("other", wt)}));
    if (!bm) {
        b.replaceOutput(0, mm);
        return Status::ok();
    }
    IRLENS_ASSIGN_OR_RETURN(out, b.call(atenTarget("add", "Tensor"), {arg::tensor("self", mm), arg::tensor("other", bias)}));
    b.replaceOutput(0, out);
    return Status::ok();
}

Status conv(RewriteBuilder& b) {
    const NodeArgs& a = b.args();
    IRLENS_ASSIGN_OR_RETURN(x, input(b, "input"));
    IRLENS_ASSIGN_OR_RETURN(w, input(b, "weight"));
    size_t spatial = static_cast<size_t>(std::max<int64_t>(rankOf(b, w) - 2, 1));
    auto list = [&](const char* name, int64_t fallback) {
        auto v = a.optInts(name).value_or(std::vector<int64_t>{fallback});
        if (v.size() == 1 && spatial > 1) v.assign(spatial, v[0]);
        return v;
    };
    std::vector<NamedArgument> in{arg::tensor("input", x), arg::tensor("weight", w)};
    std::string bias = a.tensorName("bias");
    in.push_back(bias.empty() ? arg::none("bias") : arg::tensor("bias", bias));
    in.push_back(arg::ints("stride", list("stride", 1)));
    in.push_back(arg::ints("padding", list("padding", 0)));
    in.push_back(arg::ints("dilation", list("dilation", 1)));
    in.push_back(arg::boolean("transposed", false));
    in.push_back(arg::ints("output_padding", std::vector<int64_t>(spatial, 0)));
    in.push_back(arg::integer("groups", a.optInteger("groups").value_or(1)));
    IRLENS_ASSIGN_OR_RETURN(out, b.call(atenTarget("convolution"), std::move(in)));
    b.replaceOutput(0, out);
    return Status::ok();
}

Status batchNorm(RewriteBuilder& b) {
    const NodeArgs& a = b.args();
    IRLENS_ASSIGN_OR_RETURN(training, a.boolean("training"));
    if (training) return a.error("training", "batch_norm in training mode (running-stat updates) is not decomposed by irlens yet");
    IRLENS_ASSIGN_OR_RETURN(x, input(b, "input"));
    std::string rm = a.tensorName("running_mean"), rv = a.tensorName("running_var");
    if (rm.empty() || rv.empty()) return a.error("running_mean", "eval-mode batch_norm needs running statistics");
    auto optionalTensor = [&](const char* n) { std::string v = a.tensorName(n); return v.empty() ? arg::none(n) : arg::tensor(n, v); };
    IRLENS_ASSIGN_OR_RETURN(momentum, a.number("momentum"));
    IRLENS_ASSIGN_OR_RETURN(eps, a.number("eps"));
    IRLENS_ASSIGN_OR_RETURN(outs, b.callMulti(atenTarget("_native_batch_norm_legit_no_training"),
                                           {arg::tensor("input", x), optionalTensor("weight"), optionalTensor("bias"), arg::tensor("running_mean", rm),
                                            arg::tensor("running_var", rv), arg::floating("momentum", momentum), arg::floating("eps", eps)}));
    b.replaceOutput(0, outs[0]);
    return Status::ok();
}

// _native_batch_norm_legit_functional (torch._decomp native_batch_norm_helper, functional=True):
// batch statistics in training, running statistics returned updated rather than mutated.
Status batchNormFunctional(RewriteBuilder& b) {
    const NodeArgs& a = b.args();
    IRLENS_ASSIGN_OR_RETURN(x, input(b, "input"));
    IRLENS_ASSIGN_OR_RETURN(rm, input(b, "running_mean"));
    IRLENS_ASSIGN_OR_RETURN(rv, input(b, "running_var"));
    IRLENS_ASSIGN_OR_RETURN(training, a.boolean("training"));
    IRLENS_ASSIGN_OR_RETURN(momentum, a.number("momentum"));
    IRLENS_ASSIGN_OR_RETURN(eps, a.number("eps"));
    const TensorMeta* xm = b.meta(x);
    int64_t rank = static_cast<int64_t>(xm->sizes.size());
    if (rank < 2 || xm->dtype != opmathType(xm->dtype)) return a.error("input", "expected an (N, C, ...) float32/float64 input");
    auto optionalTensor = [&](const char* n) { std::string v = a.tensorName(n); return v.empty() ? arg::none(n) : arg::tensor(n, v); };
    if (!training) {
        IRLENS_ASSIGN_OR_RETURN(outs, b.callMulti(atenTarget("_native_batch_norm_legit_no_training"),
                                               {arg::tensor("input", x), optionalTensor("weight"), optionalTensor("bias"), arg::tensor("running_mean", rm),
                                                arg::tensor("running_var", rv), arg::floating("momentum", momentum), arg::floating("eps", eps)}));
        b.replaceOutput(0, outs[0]);
        b.replaceOutput(3, rm);
        b.replaceOutput(4, rv);
        return Status::ok();
    }
    std::vector<int64_t> dims{0};
    for (int64_t i = 2; i < rank; ++i) dims.push_back(i);
    auto mul = [&](const std::string& v, double f) { return b.call(atenTarget("mul", "Tensor"), {arg::tensor("self", v), arg::floating("other", f)}); };
    auto bin = [&](const char* op, const std::string& u, const std::string& v) {
        return b.call(atenTarget(op, "Tensor"), {arg::tensor("self", u), arg::tensor("other", v)});
    };
    IRLENS_ASSIGN_OR_RETURN(var, b.call(atenTarget("var", "correction"), {arg::tensor("self", x), arg::ints("dim", dims),
                                                                       arg::kw(arg::integer("correction", 0)), arg::kw(arg::boolean("keepdim", true))}));
    IRLENS_ASSIGN_OR_RETURN(mean, b.call(atenTarget("mean", "dim"), {arg::tensor("self", x), arg::ints("dim", dims), arg::boolean("keepdim", true)}));
    IRLENS_ASSIGN_OR_RETURN(ve, b.call(atenTarget("add", "Tensor"), {arg::tensor("self", var), arg::floating("other", eps)}));
    IRLENS_ASSIGN_OR_RETURN(rstd, b.call(atenTarget("rsqrt"), {arg::tensor("self", ve)}));
    IRLENS_ASSIGN_OR_RETURN(centered, bin("sub", x, mean));
    IRLENS_ASSIGN_OR_RETURN(out0, bin("mul", centered, rstd));
    std::string out = out0;
    std::vector<SymInt> perChannel{xm->sizes[1]};
    for (int64_t i = 2; i < rank; ++i) perChannel.push_back(SymInt::literal(1));
    for (const char* name : {"weight", "bias"}) {
        std::string v = a.tensorName(name);
        if (v.empty()) continue;
        std::string vb = v;
        if (rank > 2) {
            IRLENS_ASSIGN_OR_RETURN(viewed, b.call(atenTarget("view"), {arg::tensor("self", v), b.sizes("size", perChannel)}));
            vb = viewed;
        }
        IRLENS_ASSIGN_OR_RETURN(r, bin(std::string(name) == "weight" ? "mul" : "add", out, vb));
        out = r;
    }
    IRLENS_ASSIGN_OR_RETURN(saveMean, b.call(atenTarget("squeeze", "dims"), {arg::tensor("self", mean), arg::ints("dim", dims)}));
    IRLENS_ASSIGN_OR_RETURN(saveRstd, b.call(atenTarget("squeeze", "dims"), {arg::tensor("self", rstd), arg::ints("dim", dims)}));
    int64_t n = 1;
    for (int64_t d : dims) n *= xm->sizes[d].isStatic() ? xm->sizes[d].value : 1;
    IRLENS_ASSIGN_OR_RETURN(m1, mul(saveMean, momentum));
    IRLENS_ASSIGN_OR_RETURN(m2, mul(rm, 1 - momentum));
    IRLENS_ASSIGN_OR_RETURN(newMean, bin("add", m1, m2));
    IRLENS_ASSIGN_OR_RETURN(sqVar, b.call(atenTarget("squeeze", "dims"), {arg::tensor("self", var), arg::ints("dim", dims)}));
    IRLENS_ASSIGN_OR_RETURN(unbiased, mul(sqVar, n > 1 ? double(n) / double(n - 1) : 1.0));
    IRLENS_ASSIGN_OR_RETURN(v1, mul(unbiased, momentum));
    IRLENS_ASSIGN_OR_RETURN(v2, mul(rv, 1 - momentum));
    IRLENS_ASSIGN_OR_RETURN(newVar, bin("add", v1, v2));
    b.replaceOutput(0, out);
    b.replaceOutput(1, saveMean);
    b.replaceOutput(2, saveRstd);
    b.replaceOutput(3, newMean);
    b.replaceOutput(4, newVar);
    return Status::ok();
}

Status layerNorm(RewriteBuilder& b) {
    const NodeArgs& a = b.args();
    IRLENS_ASSIGN_OR_RETURN(x, input(b, "input"));
    IRLENS_ASSIGN_OR_RETURN(shape, a.symInts("normalized_shape"));
    auto optionalTensor = [&](const char* n) { std::string v = a.tensorName(n); return v.empty() ? arg::none(n) : arg::tensor(n, v); };
    IRLENS_ASSIGN_OR_RETURN(eps, a.number("eps"));
    IRLENS_ASSIGN_OR_RETURN(outs, b.callMulti(atenTarget("native_layer_norm"), {arg::tensor("input", x), b.sizes("normalized_shape", shape),
                                                                            optionalTensor("weight"), optionalTensor("bias"), arg::floating("eps", eps)}));
    b.replaceOutput(0, outs[0]);
    return Status::ok();
}

Status dropout(RewriteBuilder& b) {
    const NodeArgs& a = b.args();
    IRLENS_ASSIGN_OR_RETURN(x, input(b, "input"));
    IRLENS_ASSIGN_OR_RETURN(p, a.number("p"));
    IRLENS_ASSIGN_OR_RETURN(train, a.boolean("train"));
    if (train && p != 0) {
        IRLENS_ASSIGN_OR_RETURN(outs, b.callMulti(atenTarget("native_dropout"), {arg::tensor("input", x), arg::floating("p", p), arg::boolean("train", true)}));
        b.replaceOutput(0, outs[0]);
        return Status::ok();
    }
    IRLENS_ASSIGN_OR_RETURN(out, b.call(atenTarget("clone"), {arg::tensor("self", x)}));
    b.replaceOutput(0, out);
    return Status::ok();
}

Status contiguous(RewriteBuilder& b) {
    IRLENS_ASSIGN_OR_RETURN(x, input(b, "self"));
    if (meta::isContiguous(*b.meta(x))) {
        b.replaceOutput(0, x); // already contiguous: returns self, the node vanishes
        return Status::ok();
    }
    IRLENS_ASSIGN_OR_RETURN(out, b.call(atenTarget("clone"), {arg::tensor("self", x), arg::kw(arg::memoryFormat("memory_format", MemoryFormat::Contiguous))}));
    b.replaceOutput(0, out);
    return Status::ok();
}

Status reshapeRule(RewriteBuilder& b, const std::string& sizeArg) {
    IRLENS_ASSIGN_OR_RETURN(x, input(b, "self"));
    IRLENS_ASSIGN_OR_RETURN(shape, b.args().symInts(sizeArg));
    IRLENS_ASSIGN_OR_RETURN(resolved, meta::inferViewShape(b.args(), sizesOf(b, x), shape));
    IRLENS_ASSIGN_OR_RETURN(out, reshapeTo(b, x, resolved));
    b.replaceOutput(0, out);
    return Status::ok();
}

// flatten / unflatten / _unsafe_view: the output meta already says the target shape.
Status toRecordedShape(RewriteBuilder& b, bool allowCopy) {
    IRLENS_ASSIGN_OR_RETURN(x, input(b, "self"));
    IRLENS_ASSIGN_OR_RETURN(outMeta, inferSingleMeta(b.original(), b.graph()));
    if (!allowCopy || meta::viewStrides(*b.meta(x), outMeta.sizes)) {
        IRLENS_ASSIGN_OR_RETURN(out, b.call(atenTarget("view"), {arg::tensor("self", x), b.sizes("size", outMeta.sizes)}));
        b.replaceOutput(0, out);
        return Status::ok();
    }
    IRLENS_ASSIGN_OR_RETURN(out, reshapeTo(b, x, outMeta.sizes));
    b.replaceOutput(0, out);
    return Status::ok();
}

Status transposeRule(RewriteBuilder& b, int64_t d0, int64_t d1) {
    IRLENS_ASSIGN_OR_RETURN(x, input(b, "self"));
    int64_t rank = rankOf(b, x);
    if (rank < 2) {
        b.replaceOutput(0, x);
        return Status::ok();
    }
    auto w0 = meta::wrapDim(b.args(), "dim0", d0, rank), w1 = meta::wrapDim(b.args(), "dim1", d1, rank);
    if (!w0) return w0.status();
    if (!w1) return w1.status();
    std::vector<int64_t> perm(rank);
    for (int64_t i = 0; i < rank; ++i) perm[i] = i;
    std::swap(perm[*w0], perm[*w1]);
    IRLENS_ASSIGN_OR_RETURN(out, permute(b, x, perm));
    b.replaceOutput(0, out);
    return Status::ok();
}

Status split(RewriteBuilder& b) {
    IRLENS_ASSIGN_OR_RETURN(x, input(b, "self"));
    IRLENS_ASSIGN_OR_RETURN(metas, inferMeta(b.original(), b.graph()));
    int64_t dim = b.args().optInteger("dim").value_or(0);
    auto d = meta::wrapDim(b.args(), "dim", dim, rankOf(b, x));
    if (!d) return d.status();
    std::vector<int64_t> sizes;
    for (const auto& m : metas) sizes.push_back(m.meta.sizes[*d].value);
    IRLENS_ASSIGN_OR_RETURN(outs, b.callMulti(atenTarget("split_with_sizes"), {arg::tensor("self", x), arg::ints("split_sizes", sizes), arg::integer("dim", *d)}));
    for (size_t i = 0; i < outs.size(); ++i) b.replaceOutput(i, outs[i]);
    return Status::ok();
}

Status squeeze(RewriteBuilder& b, bool all) {
    IRLENS_ASSIGN_OR_RETURN(x, input(b, "self"));
    std::vector<int64_t> dims;
    if (all) {
        for (int64_t i = 0; i < rankOf(b, x); ++i) dims.push_back(i);
    } else {
        IRLENS_ASSIGN_OR_RETURN(dim, b.args().integer("dim"));
        dims.push_back(dim);
    }
    IRLENS_ASSIGN_OR_RETURN(out, b.call(atenTarget("squeeze", "dims"), {arg::tensor("self", x), arg::ints("dim", dims)}));
    b.replaceOutput(0, out);
    return Status::ok();
}

Status maxPool(RewriteBuilder& b) {
    const NodeArgs& a = b.args();
    IRLENS_ASSIGN_OR_RETURN(x, input(b, "self"));
    IRLENS_ASSIGN_OR_RETURN(kernel, a.ints("kernel_size"));
    std::vector<NamedArgument> in{arg::tensor("self", x), arg::ints("kernel_size", kernel),
                                  arg::ints("stride", a.optInts("stride").value_or(std::vector<int64_t>{})),
                                  arg::ints("padding", a.optInts("padding").value_or(std::vector<int64_t>{0, 0})),
                                  arg::ints("dilation", a.optInts("dilation").value_or(std::vector<int64_t>{1, 1})),
                                  arg::boolean("ceil_mode", a.optInteger("ceil_mode").value_or(0) != 0)};
    IRLENS_ASSIGN_OR_RETURN(outs, b.callMulti(atenTarget("max_pool2d_with_indices"), std::move(in)));
    b.replaceOutput(0, outs[0]);
    return Status::ok();
}

Status adaptiveAvgPool(RewriteBuilder& b) {
    IRLENS_ASSIGN_OR_RETURN(x, input(b, "self"));
    IRLENS_ASSIGN_OR_RETURN(size, b.args().ints("output_size"));
    if (size.size() == 2 && size[0] == 1 && size[1] == 1) {
        IRLENS_ASSIGN_OR_RETURN(out, b.call(atenTarget("mean", "dim"), {arg::tensor("self", x), arg::ints("dim", {-1, -2}), arg::boolean("keepdim", true)}));
        b.replaceOutput(0, out);
        return Status::ok();
    }
    IRLENS_ASSIGN_OR_RETURN(out, b.call(atenTarget("_adaptive_avg_pool2d"), {arg::tensor("self", x), arg::ints("output_size", size)}));
    b.replaceOutput(0, out);
    return Status::ok();
}

Status softmax(RewriteBuilder& b, const std::string& core) {
    IRLENS_ASSIGN_OR_RETURN(x, input(b, "self"));
    IRLENS_ASSIGN_OR_RETURN(dim, b.args().integer("dim"));
    if (auto dt = b.args().scalarType("dtype")) {
        IRLENS_ASSIGN_OR_RETURN(c, b.call(atenTarget("_to_copy"), {arg::tensor("self", x), arg::kw(arg::dtype("dtype", *dt))}));
        x = c;
    }
    IRLENS_ASSIGN_OR_RETURN(out, b.call(atenTarget(core), {arg::tensor("self", x), arg::integer("dim", dim), arg::boolean("half_to_float", false)}));
    b.replaceOutput(0, out);
    return Status::ok();
}

Status silu(RewriteBuilder& b) {
    IRLENS_ASSIGN_OR_RETURN(x, input(b, "self"));
    IRLENS_ASSIGN_OR_RETURN(s, b.call(atenTarget("sigmoid"), {arg::tensor("self", x)}));
    IRLENS_ASSIGN_OR_RETURN(out, b.call(atenTarget("mul", "Tensor"), {arg::tensor("self", x), arg::tensor("other", s)}));
    b.replaceOutput(0, out);
    return Status::ok();
}

Status maskedFill(RewriteBuilder& b, bool scalar) {
    IRLENS_ASSIGN_OR_RETURN(x, input(b, "self"));
    IRLENS_ASSIGN_OR_RETURN(mask, input(b, "mask"));
    const TensorMeta* xm = b.meta(x);
    std::string value;
    if (scalar) {
        const Argument* v = b.args().get("value");
        if (!v) return b.args().error("value", "missing");
        IRLENS_ASSIGN_OR_RETURN(full, b.call(atenTarget("full"), {arg::ints("size", {}), arg::copy("fill_value", *v), arg::kw(arg::dtype("dtype", xm->dtype)),
                                                              arg::kw(arg::boolean("pin_memory", false))}));
        value = full;
    } else {
        IRLENS_ASSIGN_OR_RETURN(v, input(b, "value"));
        value = v;
    }
    IRLENS_ASSIGN_OR_RETURN(out, b.call(atenTarget("where", "self"), {arg::tensor("condition", mask), arg::tensor("self", value), arg::tensor("other", x)}));
    b.replaceOutput(0, out);
    return Status::ok();
}

Status arangeRule(RewriteBuilder& b, bool hasStart) {
    std::vector<NamedArgument> in;
    in.push_back(hasStart ? arg::copy("start", *b.args().get("start")) : arg::integer("start", 0));
    in.push_back(arg::copy("end", *b.args().get("end")));
    in.push_back(arg::integer("step", 1));
    for (const auto& kw : b.original().inputs)
        if (kw.name != "start" && kw.name != "end") in.push_back(kw);
    IRLENS_ASSIGN_OR_RETURN(out, b.call(atenTarget("arange", "start_step"), std::move(in)));
    b.replaceOutput(0, out);
    return Status::ok();
}

Status unary(RewriteBuilder& b, const std::string& target, const std::vector<NamedArgument>& extra) {
    IRLENS_ASSIGN_OR_RETURN(x, input(b, "self"));
    std::vector<NamedArgument> in{arg::tensor("self", x)};
    in.insert(in.end(), extra.begin(), extra.end());
    IRLENS_ASSIGN_OR_RETURN(out, b.call(target, std::move(in)));
    b.replaceOutput(0, out);
    return Status::ok();
}

Status sumAll(RewriteBuilder& b) {
    IRLENS_ASSIGN_OR_RETURN(x, input(b, "self"));
    std::vector<NamedArgument> in{arg::tensor("self", x), arg::none("dim"), arg::boolean("keepdim", false)};
    if (auto dt = b.args().scalarType("dtype")) in.push_back(arg::kw(arg::dtype("dtype", *dt)));
    IRLENS_ASSIGN_OR_RETURN(out, b.call(atenTarget("sum", "dim_IntList"), std::move(in)));
    b.replaceOutput(0, out);
    return Status::ok();
}

// repeat_interleave.Tensor(repeats) -> out[j] = #{k : cumsum(repeats)[k] <= j} for j < output size.
// The output size is data-dependent: output_size when given, else the recorded output's static size.
Status repeatInterleaveTensor(RewriteBuilder& b) {
    IRLENS_ASSIGN_OR_RETURN(repeats, input(b, "repeats"));
    const TensorMeta* rm = b.meta(repeats);
    if (!rm || rm->sizes.size() != 1) return b.args().error("repeats", "expected a 1-D tensor of repeats");
    std::optional<int64_t> n = b.args().optInteger("output_size");
    const Argument& result = b.original().outputs.empty() ? Argument() : b.original().outputs[0];
    if (!n) {
        const TensorMeta* om = result.kind == ArgKind::Tensor ? b.meta(result.s) : nullptr;
        if (om && om->sizes.size() == 1 && om->sizes[0].isStatic()) n = om->sizes[0].value;
    }
    if (!n) return b.args().error("output_size", "the output size is data-dependent: give output_size or record a static output size");
    const ScalarType it = rm->dtype;
    IRLENS_ASSIGN_OR_RETURN(ends, b.call(atenTarget("cumsum"), {arg::tensor("self", repeats), arg::integer("dim", 0)}));
    IRLENS_ASSIGN_OR_RETURN(pos, b.call(atenTarget("arange", "start_step"), {arg::integer("start", 0), arg::integer("end", *n), arg::integer("step", 1),
                                                                       arg::kw(arg::dtype("dtype", it)), arg::kw(arg::boolean("pin_memory", false))}));
    IRLENS_ASSIGN_OR_RETURN(row, b.call(atenTarget("unsqueeze"), {arg::tensor("self", ends), arg::integer("dim", 0)}));
    IRLENS_ASSIGN_OR_RETURN(col, b.call(atenTarget("unsqueeze"), {arg::tensor("self", pos), arg::integer("dim", 1)}));
    IRLENS_ASSIGN_OR_RETURN(done, b.call(atenTarget("le", "Tensor"), {arg::tensor("self", row), arg::tensor("other", col)}));
    IRLENS_ASSIGN_OR_RETURN(out, b.call(atenTarget("sum", "dim_IntList"), {arg::tensor("self", done), arg::ints("dim", {1}), arg::boolean("keepdim", false),
                                                                      arg::kw(arg::dtype("dtype", it))}));
    b.replaceOutput(0, out);
    return Status::ok();
}

} // namespace

Status matmulRule(RewriteBuilder& b);
Status sdpaRule(RewriteBuilder& b);

void registerTraining(std::vector<DecompRule>& out) {
    const auto S = DecompStage::ToCore;
    const std::string cia = "ATen CompositeImplicitAutograd kernel";
    const std::string py = "torch._decomp.decompositions";
    out.push_back({"aten::linear.default", S, "linear -> t + addmm (or view + addmm + view, or matmul + add)", "aten/src/ATen/native/Linear.cpp (" + cia + ")",
                   "linear is CompositeImplicitAutograd: run_decompositions runs its C++ kernel once. A 2-D input with bias becomes addmm(bias, x, weight.t()); a contiguous N-D input is folded to 2-D with a view first (_flatten_nd_linear) and viewed back; otherwise matmul(x, weight.t()) then add(bias).", linear});
    for (const char* c : {"aten::conv1d.default", "aten::conv2d.default", "aten::conv3d.default"})
        out.push_back({c, S, "convN -> convolution", "aten/src/ATen/native/Convolution.cpp (" + cia + ")",
                       "conv1d/2d/3d are thin CIA wrappers: they call the core op convolution with transposed=False and zero output_padding, with stride/padding/dilation expanded to one value per spatial dim.", conv});
    out.push_back({"aten::batch_norm.default", S, "batch_norm (eval) -> _native_batch_norm_legit_no_training[0]", "aten/src/ATen/native/Normalization.cpp + " + py,
                   "In eval mode batch_norm normalizes with the running statistics; Core ATen spells this _native_batch_norm_legit_no_training, whose first output is the result (the other two are empty save_mean/save_invstd on CPU).", batchNorm});
    out.push_back({"aten::_native_batch_norm_legit_functional.default", S, "batch norm (functional) -> var/mean, rsqrt, sub, mul, add + running-stat updates",
                   py + ".native_batch_norm_helper (functional=True)",
                   "In training, batch norm normalizes with the batch statistics (biased variance, correction 0) and returns the updated running statistics momentum * batch + (1 - momentum) * running (the variance unbiased by n / (n - 1)) instead of mutating them. In eval it is _native_batch_norm_legit_no_training and the running stats pass through.",
                   batchNormFunctional});
    out.push_back({"aten::layer_norm.default", S, "layer_norm -> native_layer_norm[0]", "aten/src/ATen/native/layer_norm.cpp (" + cia + ")",
                   "layer_norm calls native_layer_norm, which also returns mean and rstd (used by the backward); only output 0 is read.", layerNorm});
    out.push_back({"aten::dropout.default", S, "dropout -> clone (eval) or native_dropout[0] (train)", py + ".dropout",
                   "With train=False (or p=0) dropout is the identity; the decomposition returns input.clone(). In training it is native_dropout(x, p, True)[0].", dropout});
    out.push_back({"aten::contiguous.default", S, "contiguous -> clone(contiguous_format) or nothing", "aten/src/ATen/native/TensorProperties.cpp (" + cia + ")",
                   "contiguous() returns self when the tensor is already contiguous (the node disappears), else a clone in contiguous_format.", contiguous});
    out.push_back({"aten::reshape.default", S, "reshape -> view (or clone + view)", "aten/src/ATen/native/TensorShape.cpp (" + cia + ")",
                   "reshape is a view when the strides allow it (computeStride), else a contiguous clone followed by _unsafe_view, which is a view of the fresh copy.", [](RewriteBuilder& b) { return reshapeRule(b, "shape"); }});
    out.push_back({"aten::_unsafe_view.default", S, "_unsafe_view -> view", py + " (_unsafe_view)",
                   "_unsafe_view is a view that skips the alias bookkeeping; Core ATen writes it as view.", [](RewriteBuilder& b) { return toRecordedShape(b, false); }});
    out.push_back({"aten::flatten.using_ints", S, "flatten -> view (or clone + view)", "aten/src/ATen/native/TensorShape.cpp (" + cia + ")",
                   "flatten(start, end) is reshape to the merged sizes.", [](RewriteBuilder& b) { return toRecordedShape(b, true); }});
    out.push_back({"aten::unflatten.int", S, "unflatten -> view", "aten/src/ATen/native/TensorShape.cpp (" + cia + ")",
                   "unflatten splits one dim into several: always a view.", [](RewriteBuilder& b) { return toRecordedShape(b, false); }});
    out.push_back({"aten::t.default", S, "t -> permute([1, 0])", py + " (t -> transpose -> permute)",
                   "t() is transpose(0, 1), and transpose is written as a full permutation in Core ATen.", [](RewriteBuilder& b) { return transposeRule(b, 0, 1); }});
    out.push_back({"aten::transpose.int", S, "transpose -> permute", py + ".transpose",
                   "transpose(d0, d1) swaps two dims: Core ATen has only permute, with the full permutation.", [](RewriteBuilder& b) -> Status {
                       IRLENS_ASSIGN_OR_RETURN(d0, b.args().integer("dim0"));
                       IRLENS_ASSIGN_OR_RETURN(d1, b.args().integer("dim1"));
                       return transposeRule(b, d0, d1);
                   }});
    out.push_back({"aten::split.Tensor", S, "split -> split_with_sizes", py + ".split",
                   "split(size) becomes split_with_sizes with the explicit chunk sizes (the last chunk may be smaller).", split});
    out.push_back({"aten::squeeze.dim", S, "squeeze.dim -> squeeze.dims", py + ".squeeze",
                   "Core ATen keeps one squeeze overload, squeeze.dims, with a list of dims.", [](RewriteBuilder& b) { return squeeze(b, false); }});
    out.push_back({"aten::squeeze.default", S, "squeeze -> squeeze.dims(all dims)", py + ".squeeze",
                   "squeeze() without dims is squeeze.dims over every dim (only size-1 dims go away).", [](RewriteBuilder& b) { return squeeze(b, true); }});
    out.push_back({"aten::max_pool2d.default", S, "max_pool2d -> max_pool2d_with_indices[0]", "aten/src/ATen/native/MaxPooling.cpp (" + cia + ")",
                   "max_pool2d is CIA; the core op also returns the argmax indices, which are dropped.", maxPool});
    out.push_back({"aten::adaptive_avg_pool2d.default", S, "adaptive_avg_pool2d -> mean.dim (1x1) or _adaptive_avg_pool2d", "aten/src/ATen/native/AdaptiveAveragePooling.cpp (" + cia + ")",
                   "A 1x1 output is a mean over the last two dims with keepdim=True; other sizes call the core op _adaptive_avg_pool2d.", adaptiveAvgPool});
    out.push_back({"aten::softmax.int", S, "softmax -> _softmax", "aten/src/ATen/native/SoftMax.cpp (" + cia + ")",
                   "softmax(x, dim, dtype) converts to dtype first (_to_copy) when given, then calls _softmax(x, dim, half_to_float=False).", [](RewriteBuilder& b) { return softmax(b, "_softmax"); }});
    out.push_back({"aten::log_softmax.int", S, "log_softmax -> _log_softmax", "aten/src/ATen/native/SoftMax.cpp (" + cia + ")",
                   "log_softmax(x, dim, dtype) -> _log_softmax(x, dim, half_to_float=False).", [](RewriteBuilder& b) { return softmax(b, "_log_softmax"); }});
    out.push_back({"aten::silu.default", S, "silu -> mul(x, sigmoid(x))", py + ".silu", "silu is not core: it decomposes to x * sigmoid(x).", silu});
    out.push_back({"aten::masked_fill.Scalar", S, "masked_fill -> full + where", "torch._refs.masked_fill",
                   "masked_fill(x, mask, v) is where(mask, v, x); the scalar becomes a 0-dim full() of x's dtype.", [](RewriteBuilder& b) { return maskedFill(b, true); }});
    out.push_back({"aten::masked_fill.Tensor", S, "masked_fill -> where", "torch._refs.masked_fill", "masked_fill(x, mask, v) is where(mask, v, x).",
                   [](RewriteBuilder& b) { return maskedFill(b, false); }});
    out.push_back({"aten::arange.start", S, "arange.start -> arange.start_step", py + ".arange", "The core overload always has an explicit step (1).",
                   [](RewriteBuilder& b) { return arangeRule(b, true); }});
    out.push_back({"aten::arange.default", S, "arange -> arange.start_step", py + ".arange", "arange(end) is arange(0, end, 1).",
                   [](RewriteBuilder& b) { return arangeRule(b, false); }});
    out.push_back({"aten::lift_fresh_copy.default", S, "lift_fresh_copy -> clone", py + ".lift_fresh_copy", "A lifted constant's fresh copy is a clone.",
                   [](RewriteBuilder& b) { return unary(b, atenTarget("clone"), {}); }});
    out.push_back({"aten::detach.default", S, "detach -> alias", py + ".detach", "detach only cuts autograd; in an inference graph it is an alias.",
                   [](RewriteBuilder& b) { return unary(b, atenTarget("alias"), {}); }});
    out.push_back({"aten::repeat_interleave.Tensor", S, "repeat_interleave(repeats) -> cumsum, arange, le, sum", "torch._refs.repeat_interleave (Tensor overload)",
                   "Position j of the result is the index of the first bin whose running total exceeds j: the count of running totals cumsum(repeats) <= j. The length is the recorded output size (data-dependent in general).",
                   repeatInterleaveTensor});
    out.push_back({"aten::sum.default", S, "sum -> sum.dim_IntList(dim=None)", py + ".sum_default", "A full reduction is sum.dim_IntList over all dims.", sumAll});
    out.push_back({"aten::relu6.default", S, "relu6 -> hardtanh(0, 6)", "aten/src/ATen/native/Activation.cpp (" + cia + ")", "relu6 is hardtanh with bounds 0 and 6.",
                   [](RewriteBuilder& b) { return unary(b, atenTarget("hardtanh"), {arg::integer("min_val", 0), arg::integer("max_val", 6)}); }});
    out.push_back({"aten::to.dtype", S, "to.dtype -> _to_copy", "aten/src/ATen/native/TensorConversions.cpp (" + cia + ")", "A dtype conversion is _to_copy(dtype=...).",
                   [](RewriteBuilder& b) -> Status {
                       auto dt = b.args().scalarType("dtype");
                       if (!dt) return b.args().error("dtype", "expected a dtype");
                       return unary(b, atenTarget("_to_copy"), {arg::kw(arg::dtype("dtype", *dt))});
                   }});
    out.push_back({"aten::matmul.default", S, "matmul -> mm / bmm with expand + view", "aten/src/ATen/native/LinearAlgebra.cpp (" + cia + ")",
                   "matmul dispatches on ranks: 2-D x 2-D is mm; an N-D x 2-D product folds the batch into the rows (reshape, mm, _unsafe_view); batched products expand both operands to the broadcast batch, reshape to 3-D, bmm, and _unsafe_view to the result shape.", matmulRule});
    out.push_back({"aten::scaled_dot_product_attention.default", S, "scaled_dot_product_attention -> math (mul, matmul, softmax, matmul)",
                   "aten/src/ATen/native/transformers/attention.cpp (_scaled_dot_product_attention_math) + " + py + ".scaled_dot_product_flash_attention_for_cpu",
                   "On CPU the attention decomposes to its math form: q and k^T are each scaled by sqrt(scale), multiplied (matmul), masked, softmaxed and multiplied by v. The CPU flash decomposition then transposes, makes contiguous and transposes back, so the output keeps the (N, L, H, E) layout the fused kernel had.", sdpaRule});
}

const DecompRule& inplaceToFunctional() {
    static const DecompRule rule{"aten::<in-place pointwise>", DecompStage::ToCore, "x.op_() -> op(x) (functionalization)",
                                 "torch._functionalize / export's functionalization pass",
                                 "Core ATen is functional: an in-place op becomes its out-of-place twin, and every later read of the mutated tensor reads the new value instead.",
                                 [](RewriteBuilder& b) -> Status {
                                     const Node& n = b.original();
                                     std::string base = n.target.op().substr(0, n.target.op().size() - 1);
                                     std::string self = n.inputs.empty() ? std::string() : n.inputs[0].arg.s;
                                     if (self.empty()) return b.args().error("self", "expected the mutated tensor first");
                                     for (const auto& in : b.graph().inputs)
                                         if (in.kind == ArgKind::Tensor && in.s == self)
                                             return b.args().error("self", "mutates the graph input '" + self + "'; functionalizing it needs an input-mutation output, which irlens does not add");
                                     IRLENS_ASSIGN_OR_RETURN(out, b.call(atenTarget(base, n.target.overload()), n.inputs));
                                     b.replaceOutput(0, out);
                                     b.replaceAlias(self, out);
                                     return Status::ok();
                                 }};
    return rule;
}

} // namespace irlens::core::rules
