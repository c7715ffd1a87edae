// The format registry: every row builds, names itself, round-trips to COO exactly, and
// visit_format reaches its concrete class with the index and value types the tensor needs.
#include <QtTest>
#include <set>
#include <type_traits>

#include "test_support.hpp"
#include "tscope/error.hpp"
#include "tscope/formats/format_registry.hpp"
#include "tscope/formats/format_visit.hpp"
#include "tscope/tensor/coo_ops.hpp"

using namespace tscope;

namespace {

// What visit_format saw: the concrete class's kind and its types.
struct Seen {
    FormatKind kind;
    bool wide, floats, concrete;
};

Seen look(const SparseFormat& f) {
    return visit_format(f, [](const auto& x) {
        using X = std::remove_cvref_t<decltype(x)>;
        constexpr bool concrete = !std::is_same_v<X, SparseFormat>;
        if constexpr (concrete)
            return Seen{x.kind(), sizeof(typename X::Index) == 8, sizeof(typename X::Value) == 4, true};
        else
            return Seen{x.kind(), false, false, false};
    });
}

CooTensor as_float(const CooTensor& t) {
    CooTensor f(t.dims(), ValueType::F32);
    f.resize(t.nnz());
    std::vector<std::uint64_t> coord(static_cast<std::size_t>(t.order()));
    for (std::uint64_t z = 0; z < t.nnz(); ++z) {
        for (int m = 0; m < t.order(); ++m) coord[static_cast<std::size_t>(m)] = t.index(m, z);
        f.set(z, coord, t.value(z));
    }
    return f;
}

CooTensor sorted(CooTensor t) {
    sort_lexicographic(t);
    return t;
}

}  // namespace

class TestFormatRegistry : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void rowsAreWhole() {
        std::set<std::string> names;
        QVERIFY(!format_registry().empty());
        for (const FormatEntry& e : format_registry()) {
            QVERIFY2(names.insert(e.name).second, e.name);
            QCOMPARE(parse_format(e.name), e.kind);
            QCOMPARE(std::string(format_name(e.kind)), std::string(e.name));
            QCOMPARE(format_is_per_mode(e.kind), e.per_mode);
            QVERIFY(e.build != nullptr);
            QCOMPARE(&format_entry(e.kind), &e);
        }
        QCOMPARE(available_formats().size(), format_registry().size());
        QVERIFY_THROWS_EXCEPTION(InputError, parse_format("CSR5"));
    }

    void everyRowBuildsAndVisits_data() {
        QTest::addColumn<bool>("floats");
        QTest::addRow("double") << false;
        QTest::addRow("float") << true;
    }
    void everyRowBuildsAndVisits() {
        QFETCH(bool, floats);
        CooTensor t = tstest::random_tensor({20, 18, 22}, 400, 5, Distribution::PowerLaw);
        if (floats) t = as_float(t);
        for (const FormatEntry& e : format_registry()) {
            FormatOptions o;
            o.mode = 1;
            const auto f = build_format(e.kind, t, o);
            QCOMPARE(f->kind(), e.kind);
            const Seen seen = look(*f);
            QVERIFY2(seen.concrete, e.name);
            QCOMPARE(seen.kind, e.kind);
            QCOMPARE(seen.wide, false);  // every dim and nnz fit 32 bits
            QCOMPARE(seen.floats, floats);
            QCOMPARE(f->float_values(), floats);
            const CooTensor back = sorted(f->to_coo());
            const CooTensor want = sorted(t);
            QVERIFY2(back.nnz() == want.nnz(), e.name);
            for (std::uint64_t z = 0; z < want.nnz(); ++z)
                for (int m = 0; m < t.order(); ++m) QCOMPARE(back.index(m, z), want.index(m, z));
        }
    }

    // Every format marks the arrays that hold the tensor's values (at least one per nonzero,
    // padding included) and no others: the bench counts them at fp32 for the GPU's copy
    // (StorageReport::bytes_with_values_of), 4 bytes a value less than the host's doubles.
    void everyRowMarksItsValues() {
        const CooTensor t = tstest::random_tensor({20, 18, 22}, 400, 5, Distribution::PowerLaw);
        for (const FormatEntry& e : format_registry()) {
            FormatOptions o;
            o.mode = 1;
            const StorageReport s = build_format(e.kind, t, o)->storage();
            std::uint64_t values = 0;
            for (const ArrayInfo& a : s.arrays) {
                if (!a.values) continue;
                values += a.elements;
                QVERIFY2(a.element_bytes == sizeof(double), (e.name + std::string(": ") + a.name).c_str());
            }
            QVERIFY2(values >= t.nnz(), e.name);
            QCOMPARE(s.bytes_with_values_of(sizeof(double)), s.bytes());
            QCOMPARE(s.bytes_with_values_of(sizeof(float)), s.bytes() - values * (sizeof(double) - sizeof(float)));
        }
    }

    // Below a row's min_order the build refuses in words; at it and above it builds.
    void minimumOrders() {
        CooTensor v({9});
        v.resize(2);
        v.set(0, std::vector<std::uint64_t>{2}, 1.5);
        v.set(1, std::vector<std::uint64_t>{7}, -1.0);
        for (const FormatEntry& e : format_registry()) {
            if (e.min_order <= 1 && e.kind != FormatKind::HLS) {
                const auto f = build_format(e.kind, v, {});
                QCOMPARE(f->to_coo().nnz(), v.nnz());
                continue;
            }
            try {
                build_format(e.kind, v, {});
                QFAIL(qPrintable(QString("%1 built an order-1 tensor").arg(e.name)));
            } catch (const InputError& err) {
                QVERIFY2(std::string(err.what()).find("order") != std::string::npos, err.what());
            }
        }
    }

    // A catch-all overload takes what no typed overload matches; typed ones win where they do.
    void overloadsFallBack() {
        const CooTensor t = tstest::random_tensor({8, 9, 10}, 50, 2);
        const auto csf = build_format(FormatKind::CSF, t, {});
        const auto cfb = build_format(FormatKind::CFB, t, {});
        auto which = [](const SparseFormat& f) {
            return visit_format(f, overloaded{[](const CsfFormat<std::uint32_t, double>&) { return 1; },
                                              [](const SparseFormat&) { return 0; }});
        };
        QCOMPARE(which(*csf), 1);
        QCOMPARE(which(*cfb), 0);
    }
};

QTEST_GUILESS_MAIN(TestFormatRegistry)
#include "test_format_registry.moc"
